"""Cross-validation of the rod pair (Tsetas et al. 2022) against the explicit contact FEM (docs/validation/crossval.md).

    python3 -m postproc.crossval mesh OUT.xml H LAYERS [CELLS]               the two strips as an XML mesh
    python3 -m postproc.crossval compare FEM.h5 ROD.h5 OUTDIR NAME [SETS]    section histories: relative L2, figure
    python3 -m postproc.crossval study PROGRAM INPUT ROD.h5 OUTDIR NAME [KEY=VALUE ...]
                                        one variant of a crossval input: run it, compare it (a model-difference study)
    python3 -m postproc.crossval run PROGRAM INPUT OUTDIR [KEY=VALUE ...]
                                        one variant of a crossval input written into OUTDIR and run there (the runs of
                                        the model-difference table of docs/validation/crossval.md)

The rods of inputs/rodpair/ (L1 = L2 = 50 m, l1 = 25 m) become two strips of thickness H (m, out-of-plane thickness
1 m, so A = H): rod 1 on x in [0, 50], y in [H, 2 H], rod 2 on x in [25, 75], y in [0, H], each CELLS (default 300,
the rod model's h = L1 / 300 at N = 301) x LAYERS Q4. Side sets: rod1_left (P(t)), rod1_top_overlap and rod1_bottom_overlap (x >= 25:
pressure and contact slave side), rod2_top (master), rod2_bottom, rod2_right. Node sets: rod1_s0..rod1_s3, every node
of rod 1 at z1 = 0, L1/3, 2 L1/3, L1 (their mean is the thickness-averaged displacement the rod model has), and
rod1_b0..rod1_b3, the bottom (contact) node of each section, for shear lag; rod1_press, the top nodes of rod 1 over the
overlap (x >= 25), and rod2_bottom, rod2_right.

compare reads /explicit/set/<SETS>0..3 (default rod1_s) of the FEM run and /rodpair/sections of the rod-pair run,
interpolates the FEM histories linearly onto the rod-pair output times and prints, on the last line,
`name=NAME l2_0=... l2_1=... l2_2=... l2_3=... l2_max=... l2_first_half=... normal_spread=...`: ||u_FEM - u_rod|| /
||u_rod|| over the run per section, the largest over the first half of the run, and max |N / N_F - 1| of the total
normal force of the contact pair once P(t) acts.
"""
import os
import sys

import numpy as np

from postproc.results import Results

L1, L2, LFREE = 50.0, 50.0, 25.0
SECTION_COLUMNS = ["u1_0", "u1_L/3", "u1_2L/3", "u1_L"]
SECTION_LABELS = ["z1 = 0", "z1 = L1/3", "z1 = 2L1/3", "z1 = L1"]


def strips(H, layers, cells=300):
    """(coords, blocks {name: [Q4 nodes]}, nodesets {name: [nodes]}, sidesets {name: [(element, local face)]})"""
    coords, blocks, nodesets, sidesets = [], {}, {}, {}
    nx, ny = cells + 1, layers + 1
    eoff = 0
    for name, x0, y0, length in (("rod1", 0.0, H, L1), ("rod2", LFREE, 0.0, L2)):
        noff = len(coords)
        h = length / cells
        node = lambda i, j: noff + j * nx + i  # noqa: E731
        coords += [(x0 + h * i, y0 + H * j / layers) for j in range(ny) for i in range(nx)]
        elems, sides = [], {"left": [], "right": [], "bottom": [], "top": []}
        for j in range(layers):
            for i in range(cells):
                e = eoff + len(elems)
                elems.append((node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)))
                # Q4 faces (include/stickslip/mesh.h): 0 bottom, 1 right, 2 top, 3 left
                overlap = name == "rod2" or x0 + h * i >= LFREE - 1e-9 * h
                if j == 0 and overlap:
                    sides["bottom"].append((e, 0))
                if j == layers - 1 and overlap:
                    sides["top"].append((e, 2))
                if i == cells - 1:
                    sides["right"].append((e, 1))
                if i == 0:
                    sides["left"].append((e, 3))
        blocks[name] = elems
        eoff += len(elems)
        nodesets[name + "_all"] = list(range(noff, noff + nx * ny))
        suffix = "_overlap" if name == "rod1" else ""
        for side in ("bottom", "top"):
            sidesets[f"{name}_{side}{suffix}"] = sides[side]
        for side in ("left", "right"):
            sidesets[f"{name}_{side}"] = sides[side]
        if name == "rod1":
            nodesets["rod1_press"] = [node(i, layers) for i in range(cells // 2, nx)]
            for k in range(4):
                i = k * cells // 3
                nodesets[f"rod1_s{k}"] = [node(i, j) for j in range(ny)]
                nodesets[f"rod1_b{k}"] = [node(i, 0)]
        else:
            nodesets["rod2_bottom"] = [node(i, 0) for i in range(nx)]
            nodesets["rod2_right"] = [node(cells, j) for j in range(ny)]
    return coords, blocks, nodesets, sidesets


def write_mesh(out, H, layers, cells=300):
    """Writes the strips as a stickslip XML mesh (schema/mesh.xsd)."""
    if cells % 6:
        raise SystemExit(f"CELLS = {cells} must be a multiple of 6 (nodes at z1 = L1/3, 2 L1/3 and the overlap start)")
    coords, blocks, nodesets, sidesets = strips(H, layers, cells)
    with open(out, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f"<!-- written by python3 -m postproc.crossval mesh {os.path.basename(out)} {H:g} {layers} {cells} -->\n")
        f.write('<mesh dim="2">\n  <nodes>\n')
        for c in coords:
            f.write("    %.17g %.17g\n" % c)
        f.write("  </nodes>\n")
        for k, (name, els) in enumerate(blocks.items()):
            f.write(f'  <block name="{name}" id="{k + 1}" type="Q4">\n')
            for el in els:
                f.write("    " + " ".join(str(v) for v in el) + "\n")
            f.write("  </block>\n")
        for name, nodes in nodesets.items():
            f.write(f'  <nodeset name="{name}">{" ".join(str(v) for v in nodes)}</nodeset>\n')
        for name, sides in sidesets.items():
            f.write(f'  <sideset name="{name}">{"  ".join("%d %d" % s for s in sides)}</sideset>\n')
        f.write("</mesh>\n")


def preload_time(input_text):
    """t0 (s): the end of the smoothstep of the pressure (or of the pressing displacement) in a crossval FEM input, where
    the rod-pair time starts."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(input_text)
    f = root.find("traction[@sideset='rod1_top_overlap']/function")
    if f is None:
        f = root.find("displacement[@nodeset='rod1_press']/function")
    if f is None or f.get("type") != "smoothstep":
        raise SystemExit("not a crossval FEM run: no smoothstep pressure on rod1_top_overlap or displacement of rod1_press")
    return float(f.get("t1"))


def sections(fem_path, rod_path, sets="rod1_s"):
    """(t, u_rod (nt x 4), u_fem (nt x 4)): the rod-pair sections and the FEM node-set means at the rod-pair times."""
    rod = Results(rod_path).history("rodpair/sections")
    fem = Results(fem_path)
    t0 = preload_time(fem.input_text)
    t = rod["t"]
    u_rod = np.column_stack([rod[c] for c in SECTION_COLUMNS])
    cols = []
    for k in range(4):
        s = fem.history(f"/explicit/set/{sets}{k}")
        if s["time"][-1] - t0 < t[-1] * (1 - 1e-9):
            raise SystemExit(f"{fem_path}: FEM run ends at {s['time'][-1]:g} s, before the rod-pair run ({t[-1]:g} s)")
        cols.append(np.interp(t, s["time"] - t0, s["mean_u_x"]))
    return t, u_rod, np.column_stack(cols)


def relative_l2(u, ref):
    """||u - ref|| / ||ref|| per column (uniform output times)."""
    return np.sqrt(np.sum((u - ref) ** 2, axis=0) / np.sum(ref**2, axis=0))


def figure(t, u_rod, u_fem, name, l2):
    """One plot: the four section histories of both models (mode matching solid, FEM dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k in range(4):
        line = ax.plot(t, 1e3 * u_rod[:, k], lw=1.2, label=f"{SECTION_LABELS[k]}, mode matching")[0]
        ax.plot(t, 1e3 * u_fem[:, k], "--", lw=1.2, color=line.get_color(), label=f"{SECTION_LABELS[k]}, FEM (rel. L2 {l2[k]:.1e})")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("u1 (mm)")
    ax.set_title(f"{name}: rod 1 sections, mode matching (N = 301) and 2D contact FEM")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def compare(fem_path, rod_path, outdir, name, sets="rod1_s"):
    """Relative L2 per section and the figure OUTDIR/NAME.png; returns the array of the four differences."""
    t, u_rod, u_fem = sections(fem_path, rod_path, sets)
    l2 = relative_l2(u_fem, u_rod)
    if outdir != "-":
        os.makedirs(outdir, exist_ok=True)
        figure(t, u_rod, u_fem, name, l2).savefig(os.path.join(outdir, f"{name}.png"), dpi=120)
    half = t <= 0.5 * t[-1]
    spread = normal_spread(fem_path)
    print(f"name={name} " + " ".join(f"l2_{k}={v:.3e}" for k, v in enumerate(l2)) + f" l2_max={l2.max():.3e}"
          f" l2_first_half={relative_l2(u_fem[half], u_rod[half]).max():.3e} normal_spread={spread:.3e}")
    return l2


def normal_spread(fem_path):
    """max |N(t) / N(t0) - 1| over t >= t0: how far the total normal force of the contact pair strays from N_F times
    the overlap once P(t) acts (the rod model holds it constant)."""
    r = Results(fem_path)
    c = r.history("/explicit/contact/rods")
    t0 = preload_time(r.input_text)
    n = c["normal_force"][c["time"] >= t0 * (1 - 1e-9)]
    return float(np.max(np.abs(n / n[0] - 1)))


def _mesh_args(mesh_file):
    """(H, layers, cells) from the comment the mesh command writes at the top of its file."""
    with open(mesh_file) as f:
        for line in f:
            if "postproc.crossval mesh" in line:
                w = line.split("postproc.crossval mesh")[1].split()
                return float(w[1]), int(w[2]), int(w[3])
    raise SystemExit(f"{mesh_file}: not written by python3 -m postproc.crossval mesh")


def variant(base, outdir, name, H=None, layers=None, penalty=None, eps_t=None, safety=None, sigma0=None, end=None, mu=None):
    """Writes OUTDIR/NAME.xml (and its mesh): the crossval input BASE with the strips' thickness H (m; E, rho and the end
    traction rescaled so that EA, rhoA and P stay those of the rods), LAYERS Q4 across, the normal PENALTY (Pa/m),
    the Coulomb EPS_T (N/m), the time step SAFETY, the LuGre SIGMA0 (1/m), the END time (s) or the
    friction coefficient MU (mu_s = mu_k) changed. Returns the path of the input."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(base)
    root = tree.getroot()
    mesh = root.find("mesh")
    mesh_file = os.path.join(os.path.dirname(os.path.abspath(base)), mesh.get("file"))
    H0, layers0, cells = _mesh_args(mesh_file)
    H, layers = H or H0, layers or layers0
    contact = root.find("contact")
    press = root.find("displacement[@nodeset='rod1_press']/function")

    def compliance(h):
        """d / N_F (m^2/N): penalty penetration plus the compression of both strips of thickness h"""
        return 1 / float(contact.get("penalty")) + sum(h / float(b.get("E")) for b in root.findall("block"))

    if press is not None:  # N_F from the pressing displacement d = N_F (1 / eps_N + H / E1 + H / E2)
        nf = -float(press.get("value")) / compliance(H0)
    if penalty:
        contact.set("penalty", f"{penalty:g}")
    os.makedirs(outdir, exist_ok=True)
    new_mesh = os.path.abspath(os.path.join(outdir, f"{name}-mesh.xml"))
    write_mesh(new_mesh, H, layers, cells)
    mesh.set("file", new_mesh)
    for b in root.findall("block"):
        for key in ("E", "rho"):
            b.set(key, f"{float(b.get(key)) * H0 / H:.10g}")
    for load in root.findall("traction[@sideset='rod1_left']"):
        load.set("value", " ".join(f"{float(v) * H0 / H:.10g}" for v in load.get("value").split()))
    if press is not None:
        press.set("value", f"{-nf * compliance(H):.10g}")
    friction = contact.find("friction")
    if eps_t:
        friction.set("eps_t", f"{eps_t:g}")
    if sigma0:
        friction.set("sigma0", f"{sigma0:g}")
    if mu:
        friction.set("mu_s", f"{mu:g}")
        friction.set("mu_k", f"{mu:g}")
    if safety:
        root.find("time").set("safety", f"{safety:g}")
    if end:
        root.find("time").set("end", f"{end:g}")
    path = os.path.join(outdir, f"{name}.xml")
    tree.write(path, xml_declaration=True, encoding="UTF-8")
    return path


def run_variant(program, base, out, *changes):
    """Writes the variant of BASE with CHANGES (KEY=VALUE as the keywords of variant()) into OUT and runs it there
    (OUT/results.h5); returns OUT."""
    import subprocess

    kw = {}
    for c in changes:
        k, v = c.split("=")
        kw[k] = int(v) if k == "layers" else float(v)
    inp = variant(base, out, "variant", **kw)
    subprocess.run([program, "run", inp, "-o", out, "-force", "-quiet"], check=True, stdout=subprocess.DEVNULL)
    return out


def study(program, base, rod, outdir, name, *changes):
    """Runs one variant of BASE (changes KEY=VALUE as for variant()) and compares it with the rod-pair run ROD."""
    out = run_variant(program, base, os.path.join(outdir, name), *changes)
    l2 = compare(os.path.join(out, "results.h5"), rod, outdir, name)
    return l2, Results(os.path.join(out, "results.h5")).attrs("explicit")


def main(argv):
    if len(argv) >= 4 and argv[0] == "mesh":
        write_mesh(argv[1], float(argv[2]), int(argv[3]), int(argv[4]) if len(argv) > 4 else 300)
    elif len(argv) >= 5 and argv[0] == "compare":
        compare(*argv[1:5], *(argv[5:6]))
    elif len(argv) >= 6 and argv[0] == "study":
        study(*argv[1:])
    elif len(argv) >= 4 and argv[0] == "run":
        run_variant(*argv[1:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
