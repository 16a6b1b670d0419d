"""NURBS patches and Lagrange elements in one mesh, in contact (docs/input.md, "<mesh>": a mesh file beside <patch>
elements; docs/theory.md, "NURBS patch faces as deformable masters"). The 2D Hertz case of
tests/regression/contact/iga_hertz_coarse.xml has its block as a degree-1 NURBS patch with unit weights: bilinear on
each cell, so the same discrete model as Q4 elements on the same grid (iga_hertz_lagrange.xml: the block from
meshes/hertz_block_q4_coarse.xml beside the NURBS cylinder; the patch's control points are numbered first, the file's
nodes after). Checked, each by tests/regression/explicit/check_same_results.py over the first 0.006 s of the push (the
contact grows from the first step):

  1. Lagrange slave nodes on the NURBS master (the cylinder's arc), against the all-patch model: the same histories and
     final state to RTOL (measured over the whole 0.026 s: 2.8e-12 contact history, 1.8e-10 final velocity, which is
     small at the end);
  2. the sides swapped: the cylinder's arc, a slave patch face of degree 2, on the block's top as a Lagrange master
     (L2 faces) against the same on the block as a NURBS master of degree 1 (measured: 1.0e-12, 9.5e-11);
  3. the mixed mesh on 1 and 2 ranks (the partition cuts the block and the cylinder);
  4. the sides swapped with the mortar distribution (the slave patch face's mortar rule: its face elements split where
     the projection crosses from one master face to the next, L2 faces against the degree-1 patch's face elements)
     against the same on the all-patch model (measured 5.0e-12; the mortar rule moves the contact history by 2.4e-2
     of the point rule's, so the comparison sees it);
  5. two passes (passes="2", the point distribution): the block's nodes on the NURBS cylinder and the cylinder's arc on
     the block's L2 faces, each with half the penalty, against the same two passes on the all-patch model.

RTOL 1e-9: the two models differ in the order of their sums (node numbering, the projection onto a straight segment
against Newton on a degree-1 curve), so round-off, amplified in the small final velocities; a wrong weight, projection
or numbering of the appended mesh shows at the 1e-3 level at least.

usage: check_contact_patch_lagrange.py PROGRAM PATCH.xml LAGRANGE.xml [MPIEXEC]"""
import os
import subprocess
import sys
import tempfile

RTOL = 1e-9
END = "0.006"
HERE = os.path.dirname(os.path.abspath(__file__))


def variant(src, tmp, tag, swap, mortar=False, passes=1):
    """SRC ended at END (and with the contact's sides swapped, with the mortar distribution, with two passes), written
    into TMP; mesh paths made absolute."""
    text = open(src).read().replace('<time end="0.026"', f'<time end="{END}"')
    if mortar:
        text = text.replace('distribution="point"', 'distribution="mortar"')
    if passes == 2:
        text = text.replace('distribution="point"', 'distribution="point" passes="2"')
    text = text.replace('file="', f'file="{os.path.dirname(os.path.abspath(src))}/')
    if swap:
        text = text.replace('sideset="block_top" master="cyl_right"', 'sideset="cyl_right" master="block_top"')
    path = os.path.join(tmp, f"{tag}.xml")
    with open(path, "w") as f:
        f.write(text)
    return path


def same(prog, a, na, b, nb, mpiexec, what, extra=()):
    cmd = [sys.executable, os.path.join(HERE, "..", "explicit", "check_same_results.py"), prog, str(RTOL), a, str(na), b, str(nb),
           mpiexec, *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    print(f"{what}: {last}")
    return r.returncode == 0


def main():
    prog, patch, lagrange = sys.argv[1:4]
    mpiexec = sys.argv[4] if len(sys.argv) > 4 else "mpiexec"
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        p, l = variant(patch, tmp, "patch", False), variant(lagrange, tmp, "lagrange", False)
        ps, ls = variant(patch, tmp, "patch_swap", True), variant(lagrange, tmp, "lagrange_swap", True)
        ok &= same(prog, p, 1, l, 1, mpiexec, "Lagrange slave on the NURBS master vs all patches", ["--mesh-independent"])
        ok &= same(prog, ps, 1, ls, 1, mpiexec, "NURBS slave face on the Lagrange master vs all patches", ["--mesh-independent"])
        ok &= same(prog, l, 1, l, 2, mpiexec, "mixed mesh on 1 and 2 ranks")
        pm, lm = variant(patch, tmp, "patch_mortar", True, True), variant(lagrange, tmp, "lagrange_mortar", True, True)
        ok &= same(prog, pm, 1, lm, 1, mpiexec, "NURBS slave face on the Lagrange master, mortar rule, vs all patches", ["--mesh-independent"])
        p2, l2 = variant(patch, tmp, "patch_2", False, passes=2), variant(lagrange, tmp, "lagrange_2", False, passes=2)
        ok &= same(prog, p2, 1, l2, 1, mpiexec, "two passes vs all patches", ["--mesh-independent"])
    if not ok:
        sys.exit("FAIL")
    print("ok")


if __name__ == "__main__":
    main()
