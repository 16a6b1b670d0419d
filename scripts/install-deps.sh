#!/usr/bin/env bash
# Installs the Debian packages stickslip needs, if any is missing. Idempotent; silent when all are there.
# Needs root (or sudo) only when something has to be installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  petsc-dev slepc-dev openmpi-bin libmetis-dev libxml2-dev libxml2-utils libfftw3-dev
  python3 python3-numpy python3-matplotlib python3-h5py python3-vtk9
  gmsh paraview xvfb xauth
)
# Extra tools: the sanitizer/fuzzing toolchain (make check runs the sanitizer job) and the peers used by benchmarks.
if [ "${SK_DEPS_MINIMAL:-0}" != 1 ]; then
  packages+=(clang libclang-rt-14-dev libsundials-dev calculix-ccx valgrind bsdutils)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ParaView's Python modules, for pvbatch in tests/regression/paraview: Debian's python3-paraview conflicts with
# python3-vtk9 (both ship vtkmodules; the tests read our VTK files with python3-vtk9), so it is unpacked into its own
# folder instead of installed, and the test runs pvbatch with PYTHONPATH set to it.
pvpython=/usr/local/lib/stickslip/paraview-python
if [ ! -d "$pvpython/paraview" ]; then
  echo "install-deps: unpacking python3-paraview into $pvpython"
  tmp=$(mktemp -d)
  chmod 755 "$tmp" # apt-get download hands the file to its _apt user
  (cd "$tmp" && { apt-get download -qq python3-paraview || { $sudo apt-get update -qq && apt-get download -qq python3-paraview; }; })
  dpkg-deb -x "$tmp"/python3-paraview_*.deb "$tmp/root"
  $sudo mkdir -p "$pvpython"
  $sudo cp -a "$tmp/root/usr/lib/python3/dist-packages/." "$pvpython/"
  rm -rf "$tmp"
fi
