"""3D mortar with a slave side far coarser than its master (inputs/explicit/contact_patch3d.xml with its meshes
replaced): a slave face that meets more master nodes or faces than the mortar integrals hold must stop the run with
a message that says which side to make the slave, never drop the master nodes or faces beyond the limit (which would
transfer the contact force to part of the master only, silently). Two meshes, each block a of one H8 cell (one slave
face of 1 x 1 m) resting on block b:
- b with 12 x 12 faces under it: 169 master nodes meet the slave face, more than the face's 64;
- b with 20 x 20 faces: 400 master faces near the slave face, above the candidate list of 256;
(one pass: with two, the second pass makes the fine side the slave of the coarse one and is the one that stops), and, as
the control that the message comes from the sizes and not from the set-up, the same input with b of 4 x 4
faces (25 master nodes) runs to its end. Then the reference direction: b of 12 x 12 as the slave on a (1 x 1) as
master runs.

usage: check_contact_mortar_coarse_slave.py PROGRAM INPUT MESHSCRIPT"""
import os
import sys
import tempfile

from tests.common.runs import run_command, stickslip_run

MESSAGE = "swap 'sideset' and 'master'"


def case(prog, inp, script, tmp, cells_b, swap=False):
    tag = f"{cells_b}{'s' if swap else ''}"
    mesh = os.path.join(tmp, f"m{tag}.xml")
    run_command([sys.executable, script, mesh, "a:0,0.5,0:1,1,1:1,1,1", f"b:0,0,0:1,0.5,1:{cells_b},2,{cells_b}"])
    text = open(inp).read()
    text = text.replace('file="../../meshes/patch3d.xml"', f'file="{mesh}"').replace('end="0.02"', 'end="0.001"')
    text = text.replace('fields="5"', 'fields="0"').replace('passes="2"', 'passes="1"')
    if swap:
        text = text.replace('sideset="a_bottom" master="b_top"', 'sideset="b_top" master="a_bottom"')
    path = os.path.join(tmp, f"in{tag}.xml")
    with open(path, "w") as f:
        f.write(text)
    return stickslip_run(prog, path, os.path.join(tmp, f"out{tag}"), "-quiet", check=False)


def main():
    prog, inp, script = sys.argv[1:4]
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for cells_b, what in ((12, "master nodes"), (20, "master faces lie near one slave face")):
            p = case(prog, inp, script, tmp, cells_b)
            ok = p.returncode != 0 and MESSAGE in p.log and what in p.log
            print(f"slave 1 x 1 on master {cells_b} x {cells_b}: exit {p.returncode}, message {'as expected' if ok else 'MISSING'}")
            if not ok:
                fails.append(f"{cells_b} x {cells_b}: {p.log[-1500:]}")
        for cells_b, swap in ((4, False), (12, True)):
            p = case(prog, inp, script, tmp, cells_b, swap)
            label = f"slave {cells_b} x {cells_b} on master 1 x 1" if swap else f"slave 1 x 1 on master {cells_b} x {cells_b}"
            print(f"{label}: exit {p.returncode}")
            if p.returncode != 0:
                fails.append(f"{label} (control) failed: {p.log[-1500:]}")
    if fails:
        sys.exit("FAIL:\n" + "\n".join(fails))
    print("PASS")


if __name__ == "__main__":
    main()
