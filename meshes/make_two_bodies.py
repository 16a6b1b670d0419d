#!/usr/bin/env python3
"""Writes stickslip XML meshes of two separate bodies (boxes of Q4 in 2D, H8 in 3D) for contact between deformable
bodies: body "a" and body "b", each its own element block, with node sets <body>_all and side sets <body>_<side>
(left/right = x faces, bottom/top = y faces, back/front = z faces in 3D).

    make_two_bodies.py OUT.xml  a:LOWER:UPPER:CELLS[:T4]  b:LOWER:UPPER:CELLS[:T4]
e.g. make_two_bodies.py bars.xml a:0,0:1,0.05:50,1 b:1,0:2,0.05:37,1
A trailing :T4 (3D) cuts each cell of that body into 6 tetrahedra around its (0,0,0)-(1,1,1) diagonal (conforming:
neighbouring cells cut their shared face along the same diagonal), so its sides are T3 faces.
"""
import sys

# T4 faces (mesh.h, ExodusII order)
T4_FACES = ((0, 1, 3), (1, 2, 3), (0, 3, 2), (0, 2, 1))


def tetrahedra(coords, elems, cells):
    """The H8 cells ELEMS of a box cut into 6 T4 each (positive volume, VTK order) and their boundary sides."""
    tets = []
    for h in elems:
        corner = {(0, 0, 0): h[0], (1, 0, 0): h[1], (1, 1, 0): h[2], (0, 1, 0): h[3],
                  (0, 0, 1): h[4], (1, 0, 1): h[5], (1, 1, 1): h[6], (0, 1, 1): h[7]}
        for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
            path, c = [(0, 0, 0)], [0, 0, 0]
            for ax in perm:
                c[ax] = 1
                path.append(tuple(c))
            t = [corner[q] for q in path]
            x = [coords[v] for v in t]
            e = [[x[k][d] - x[0][d] for d in range(3)] for k in (1, 2, 3)]
            vol = (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                   e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]))
            if vol < 0:
                t[1], t[2] = t[2], t[1]
            tets.append(tuple(t))
    lo = [min(c[d] for c in coords) for d in range(3)]
    hi = [max(c[d] for c in coords) for d in range(3)]
    planes = {"left": (0, lo[0]), "right": (0, hi[0]), "bottom": (1, lo[1]), "top": (1, hi[1]), "back": (2, lo[2]),
              "front": (2, hi[2])}
    sides = {s: [] for s in planes}
    for e, t in enumerate(tets):
        for f, fn in enumerate(T4_FACES):
            for s, (d, v) in planes.items():
                if all(abs(coords[t[k]][d] - v) < 1e-12 for k in fn):
                    sides[s].append((e, f))
    return tets, sides


def box(lower, upper, cells):
    """Nodes and elements (VTK order, counter-clockwise) of a structured box; sides as (element, local face)."""
    dim = len(lower)
    n = [c + 1 for c in cells]
    coords = []
    if dim == 2:
        for j in range(n[1]):
            for i in range(n[0]):
                coords.append((lower[0] + (upper[0] - lower[0]) * i / cells[0], lower[1] + (upper[1] - lower[1]) * j / cells[1]))
        node = lambda i, j: j * n[0] + i
        elems, sides = [], {s: [] for s in ("left", "right", "bottom", "top")}
        for j in range(cells[1]):
            for i in range(cells[0]):
                e = len(elems)
                elems.append((node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)))
                # Q4 faces: 0 (0,1) bottom, 1 (1,2) right, 2 (2,3) top, 3 (3,0) left
                if j == 0: sides["bottom"].append((e, 0))
                if i == cells[0] - 1: sides["right"].append((e, 1))
                if j == cells[1] - 1: sides["top"].append((e, 2))
                if i == 0: sides["left"].append((e, 3))
    else:
        for k in range(n[2]):
            for j in range(n[1]):
                for i in range(n[0]):
                    coords.append(tuple(lower[d] + (upper[d] - lower[d]) * (i, j, k)[d] / cells[d] for d in range(3)))
        node = lambda i, j, k: (k * n[1] + j) * n[0] + i
        elems, sides = [], {s: [] for s in ("left", "right", "bottom", "top", "back", "front")}
        for k in range(cells[2]):
            for j in range(cells[1]):
                for i in range(cells[0]):
                    e = len(elems)
                    elems.append((node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                                  node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)))
                    # H8 faces (mesh.h): 0 y=lo, 1 x=hi, 2 y=hi, 3 x=lo, 4 z=lo, 5 z=hi
                    if j == 0: sides["bottom"].append((e, 0))
                    if i == cells[0] - 1: sides["right"].append((e, 1))
                    if j == cells[1] - 1: sides["top"].append((e, 2))
                    if i == 0: sides["left"].append((e, 3))
                    if k == 0: sides["back"].append((e, 4))
                    if k == cells[2] - 1: sides["front"].append((e, 5))
    return coords, elems, sides


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    coords, blocks, nodesets, sidesets = [], [], [], []
    eoff = 0
    for spec in specs:
        name, lo, hi, cells, *kind = spec.split(":")
        lo = [float(x) for x in lo.split(",")]
        hi = [float(x) for x in hi.split(",")]
        cells = [int(x) for x in cells.split(",")]
        c, e, s = box(lo, hi, cells)
        etype = "Q4" if len(lo) == 2 else "H8"
        if kind == ["T4"] and len(lo) == 3:
            e, s = tetrahedra(c, e, cells)
            etype = "T4"
        elif kind:
            sys.exit(f"{spec}: the only cell option is :T4 (3D)")
        noff = len(coords)
        coords += c
        blocks.append((name, etype, [[v + noff for v in el] for el in e]))
        nodesets.append((name + "_all", list(range(noff, noff + len(c)))))
        for side, lst in s.items():
            sidesets.append((name + "_" + side, [(el + eoff, f) for el, f in lst]))
        eoff += len(e)
    dim = 2 if blocks[0][1] == "Q4" else 3
    with open(out, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write("<!-- written by meshes/make_two_bodies.py %s -->\n" % " ".join(sys.argv[2:]))
        f.write('<mesh dim="%d">\n  <nodes>\n' % dim)
        for c in coords:
            f.write("    " + " ".join("%.17g" % x for x in c) + "\n")
        f.write("  </nodes>\n")
        for i, (name, etype, els) in enumerate(blocks):
            f.write('  <block name="%s" id="%d" type="%s">\n' % (name, i + 1, etype))
            for el in els:
                f.write("    " + " ".join(str(v) for v in el) + "\n")
            f.write("  </block>\n")
        for name, nodes in nodesets:
            f.write('  <nodeset name="%s">%s</nodeset>\n' % (name, " ".join(str(v) for v in nodes)))
        for name, sides in sidesets:
            f.write('  <sideset name="%s">%s</sideset>\n' % (name, "  ".join("%d %d" % s for s in sides)))
        f.write("</mesh>\n")


if __name__ == "__main__":
    main()
