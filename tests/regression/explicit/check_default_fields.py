"""An explicit run that does not ask for fields writes a sensible number of field frames (about 50 over the run, the
initial state and the last step; docs/input.md, <output fields>), so that the fields.pvd the README opens in ParaView
exists: the collection lists between 50 and 52 frames (ceil-rounded interval: at most 50 interval steps, at least 50
when the step count is a multiple), times rising from 0 to the end time, one .vtu per frame and rank, each present.
With fields="0" none is written. Before, no fields were written unless asked. usage: check_default_fields.py PROGRAM INPUT [MPIEXEC]"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def main():
    prog, inp = sys.argv[1], sys.argv[2]
    launcher = sys.argv[3:] + (["-n", "2"] if sys.argv[3:] else [])
    fails = []
    text = open(inp, encoding="utf-8").read()
    assert "fields=" not in text, "the input must not set <output fields>"
    end = float(re.search(r'<time end="([^"]+)"', text).group(1))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "o")
        subprocess.run(launcher + [prog, "run", inp, "-o", out, "-quiet"], check=True, stdout=subprocess.DEVNULL)
        pvd = os.path.join(out, "fields.pvd")
        if not os.path.exists(pvd):
            print("FAIL: no fields.pvd written by default")
            return 1
        sets = ET.parse(pvd).getroot().findall("./Collection/DataSet")
        times = sorted({float(d.get("timestep")) for d in sets})
        ranks = {d.get("part") for d in sets}
        print(f"{len(times)} frames on {len(ranks)} rank(s), t = {times[0]} .. {times[-1]} s")
        if not 50 <= len(times) <= 52:
            fails.append(f"{len(times)} frames, expected 50 to 52")
        if times[0] != 0 or abs(times[-1] - end) > 1e-12 * end:
            fails.append(f"frames from {times[0]} to {times[-1]} s, expected 0 to {end}")
        if len(sets) != len(times) * len(ranks) or not all(os.path.exists(os.path.join(out, d.get("file"))) for d in sets):
            fails.append("a frame's .vtu is missing")
        off = os.path.join(tmp, "off.xml")
        with open(off, "w", encoding="utf-8") as f:
            f.write(re.sub(r"<output ", '<output fields="0" ', text) if "<output " in text else text.replace("</explicit>", '<output fields="0"/></explicit>'))
        subprocess.run(launcher + [prog, "run", off, "-o", os.path.join(tmp, "off"), "-quiet"], check=True, stdout=subprocess.DEVNULL)
        if os.path.exists(os.path.join(tmp, "off", "fields.pvd")):
            fails.append('fields="0" still wrote fields.pvd')
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
