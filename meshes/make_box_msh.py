#!/usr/bin/env python3
"""Writes box.msh (H8) and box_h27.msh (H27) in Gmsh 4.1 ASCII format: the meshes gmsh makes from box.geo and
box_h27.geo (gmsh is not installed on the development machine). Nodes are classified on the geometric entities of
box.geo (8 points, 12 curves, 6 surfaces, 1 volume) and numbered entity by entity as gmsh does; only the elements of
physical groups are written (Gmsh's default). Usage: python3 make_box_msh.py [OUTDIR]"""
import os
import sys

L = (2.0, 1.0, 0.5)
CELLS = (4, 3, 2)
RATIO = (1.2, 1.0, 1.0)
NAMES = ["left", "right", "bottom", "top", "back", "front"]  # physical surfaces 1..6 on surfaces 1..6

# Gmsh node order of a second-order hexahedron beyond the corners (Gmsh manual, "Node ordering"):
HEX_EDGES = [(0, 1), (0, 3), (0, 4), (1, 2), (1, 5), (2, 3), (2, 6), (3, 7), (4, 5), (4, 7), (5, 6), (6, 7)]
HEX_FACES = [(0, 3, 2, 1), (0, 1, 5, 4), (0, 4, 7, 3), (1, 2, 6, 5), (2, 3, 7, 6), (4, 5, 6, 7)]
HEX_CORNERS = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
QUAD_CORNERS = [(0, 0), (1, 0), (1, 1), (0, 1)]


def graded(n, order, length, ratio):
    """Node positions: n cells with sizes h, h r, h r^2, ... (Gmsh 'Using Progression'), order-1 nodes inside each."""
    h = length / n if ratio == 1.0 else length * (ratio - 1) / (ratio ** n - 1)
    x, left = [], 0.0
    for i in range(n):
        right = length if i == n - 1 else left + h
        x += [left + (right - left) * k / order for k in range(order)]
        left, h = right, h * ratio
    return x + [length]


def reference_points(corners, edges, faces, order):
    """Offsets (in grid steps) of the nodes of a cell in Gmsh order: corners, then mid-edges, faces, centre."""
    if order == 1:
        return [tuple(c) for c in corners]
    pts = [tuple(2 * v for v in c) for c in corners]
    for group in edges + faces:
        pts.append(tuple(sum(2 * corners[k][d] for k in group) // len(group) for d in range(len(corners[0]))))
    pts.append(tuple(1 for _ in corners[0]))
    return pts


def entity_of(ijk, n):
    """Geometric entity (dim, tag) of box.geo that grid point ijk lies on."""
    on = [0 if ijk[d] == 0 else (1 if ijk[d] == n[d] else None) for d in range(3)]
    b = [d for d in range(3) if on[d] is not None]
    if len(b) == 3:
        return 0, [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)].index(tuple(on)) + 1
    if len(b) == 2:
        free = [d for d in range(3) if on[d] is None][0]
        a, c = [on[d] for d in range(3) if d != free]
        return 1, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 12, 11]][free][a + 2 * c]
    if len(b) == 1:
        return 2, 2 * b[0] + on[b[0]] + 1
    return 3, 1


def write(path, order):
    n = [c * order for c in CELLS]
    xs = [graded(CELLS[d], order, L[d], RATIO[d]) for d in range(3)]
    grid = [(i, j, k) for k in range(n[2] + 1) for j in range(n[1] + 1) for i in range(n[0] + 1)]
    by_entity = {}
    for p in grid:
        by_entity.setdefault(entity_of(p, n), []).append(p)
    tag, blocks = {}, []
    for ent in sorted(by_entity):
        for p in by_entity[ent]:
            tag[p] = len(tag) + 1
        blocks.append((ent, by_entity[ent]))
    hex_pts = reference_points(HEX_CORNERS, HEX_EDGES, HEX_FACES, order)
    quad_pts = reference_points(QUAD_CORNERS, [(0, 1), (1, 2), (2, 3), (3, 0)], [], order)
    elements = []  # (dim, tag, gmsh type, [node tag lists])
    for s in range(6):
        d, side = s // 2, s % 2
        u, v = [e for e in range(3) if e != d]
        quads = []
        for b in range(CELLS[v]):
            for a in range(CELLS[u]):
                nodes = []
                for q in quad_pts:
                    p = [0, 0, 0]
                    p[d], p[u], p[v] = side * n[d], a * order + q[0], b * order + q[1]
                    nodes.append(tag[tuple(p)])
                quads.append(nodes)
        elements.append((2, s + 1, 3 if order == 1 else 10, quads))
    hexes = []
    for k in range(CELLS[2]):
        for j in range(CELLS[1]):
            for i in range(CELLS[0]):
                hexes.append([tag[(i * order + o[0], j * order + o[1], k * order + o[2])] for o in hex_pts])
    elements.append((3, 1, 5 if order == 1 else 12, hexes))

    out = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$PhysicalNames", "7"]
    out += ['2 %d "%s"' % (s + 1, NAMES[s]) for s in range(6)] + ['3 1 "body"', "$EndPhysicalNames", "$Entities", "8 12 6 1"]
    for t, c in enumerate(HEX_CORNERS):
        out.append("%d %.17g %.17g %.17g 0" % (t + 1, c[0] * L[0], c[1] * L[1], c[2] * L[2]))
    curve_ends = [(1, 2), (4, 3), (5, 6), (8, 7), (1, 4), (2, 3), (5, 8), (6, 7), (1, 5), (2, 6), (3, 7), (4, 8)]
    for t, (a, b) in enumerate(curve_ends):
        pa, pb = HEX_CORNERS[a - 1], HEX_CORNERS[b - 1]
        box = [min(pa[d], pb[d]) * L[d] for d in range(3)] + [max(pa[d], pb[d]) * L[d] for d in range(3)]
        out.append("%d %s 0 2 %d %d" % (t + 1, " ".join("%.17g" % v for v in box), a, -b))
    surf_curves = [(5, 12, -7, -9), (6, 11, -8, -10), (1, 10, -3, -9), (2, 11, -4, -12), (1, 6, -2, -5), (3, 8, -4, -7)]
    for s in range(6):
        d, side = s // 2, s % 2
        lo = [0.0, 0.0, 0.0]
        hi = list(L)
        lo[d] = hi[d] = side * L[d]
        out.append("%d %s 1 %d 4 %s" % (s + 1, " ".join("%.17g" % v for v in lo + hi), s + 1, " ".join(str(c) for c in surf_curves[s])))
    out.append("1 0 0 0 %.17g %.17g %.17g 1 1 6 1 2 3 4 5 6" % L)
    out += ["$EndEntities", "$Nodes", "%d %d 1 %d" % (len(blocks), len(tag), len(tag))]
    for (dim, etag), pts in blocks:
        out.append("%d %d 0 %d" % (dim, etag, len(pts)))
        out += [str(tag[p]) for p in pts]
        out += ["%.17g %.17g %.17g" % (xs[0][p[0]], xs[1][p[1]], xs[2][p[2]]) for p in pts]
    total = sum(len(e[3]) for e in elements)
    out += ["$EndNodes", "$Elements", "%d %d 1 %d" % (len(elements), total, total)]
    next_tag = 1
    for dim, etag, gtype, els in elements:
        out.append("%d %d %d %d" % (dim, etag, gtype, len(els)))
        for nodes in els:
            out.append("%d %s" % (next_tag, " ".join(str(v) for v in nodes)))
            next_tag += 1
    out.append("$EndElements")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(outdir, "box.msh"), 1)
    write(os.path.join(outdir, "box_h27.msh"), 2)
