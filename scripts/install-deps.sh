#!/usr/bin/env bash
# Installs the Debian packages stickslip needs, if any is missing. Idempotent; silent when all are there.
# Needs root (or sudo) only when something has to be installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  petsc-dev slepc-dev openmpi-bin libmetis-dev libxml2-dev libxml2-utils libfftw3-dev
  python3 python3-numpy python3-matplotlib python3-h5py python3-vtk9
)
# Extra tools: the sanitizer/fuzzing toolchain (make check runs the sanitizer job) and the peers used by benchmarks.
if [ "${SK_DEPS_MINIMAL:-0}" != 1 ]; then
  packages+=(clang libclang-rt-14-dev libsundials-dev calculix-ccx valgrind bsdutils)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
