"""Reads the files written by test_vtk.c back with VTK's own readers (legacy .vtk: vtkUnstructuredGridReader, XML .vtu:
vtkXMLUnstructuredGridReader) and compares them with expected.json.

Usage: check_vtk.py DIR [--self-test]
Tolerance: none. ASCII values are printed with %.17g, which round-trips every double, so they must compare equal;
binary values (raw in .vtk, base64 in .vtu) are big-endian IEEE doubles and 32-bit ints, so they must match bit for bit. --self-test changes,
one at a time, a coordinate, a node, a cell type and one value of every array of the expected data (reals by one ulp,
ints by 1) and requires the comparison to notice each change.
"""
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

try:
    import numpy as np
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError as exc:  # a failure, not a skip: the check is part of the foundation's definition of done
    sys.exit(f"check_vtk.py: cannot import VTK/numpy with {sys.executable} ({exc}); install python3-vtk9 "
             "and configure CMake with the Debian python3 (-DPython3_EXECUTABLE=/usr/bin/python3)")


class Mismatch(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise Mismatch(msg)


def reals(hexes):
    return np.array([float.fromhex(h) for h in hexes], dtype=np.float64)


def padded(values, ncomp_in, map_out):
    """Tuples of len(map_out) components; component k is input component map_out[k], or 0 where it is None."""
    v = values.reshape(-1, ncomp_in)
    out = np.zeros((v.shape[0], len(map_out)))
    for k, src in enumerate(map_out):
        if src is not None:
            out[:, k] = v[:, src]
    return out


def vector_map(dim):
    return [k if k < dim else None for k in range(3)]


def tensor_map(dim):
    return [r * dim + c if r < dim and c < dim else None for r in range(3) for c in range(3)]


def same(what, got, want, binary):
    """Exact equality; for binary files also the same bits (so -0.0 vs 0.0 or a swapped byte cannot hide)."""
    got = np.asarray(got)
    want = np.asarray(want)
    expect(got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}")
    if want.dtype.kind == "f":
        got = got.astype(np.float64)
        if binary:
            bad = np.nonzero(got.view(np.uint64) != want.astype(np.float64).view(np.uint64))
        else:
            bad = np.nonzero(got != want)
    else:
        bad = np.nonzero(got != want)
    if len(bad[0]):
        first = tuple(int(b[0]) for b in bad)
        raise Mismatch(f"{what}: {len(bad[0])} values differ, first at {first}: {got[first]!r} != {want[first]!r}")


def read(path):
    """(reader, grid) from VTK's reader for the file's kind: legacy .vtk or XML .vtu."""
    expect(os.path.isfile(path), f"{path} does not exist")
    if path.endswith(".vtu"):
        reader = vtk.vtkXMLUnstructuredGridReader()
        reader.SetFileName(path)
        expect(reader.CanReadFile(path), f"{path}: VTK's XML reader does not accept it")
        reader.Update()
        expect(reader.GetErrorCode() == 0, f"{path}: XML reader error {reader.GetErrorCode()}")
        return reader, reader.GetOutput()
    reader = vtk.vtkUnstructuredGridReader()
    reader.SetFileName(path)
    reader.ReadAllScalarsOn()
    reader.ReadAllVectorsOn()
    reader.ReadAllTensorsOn()
    reader.Update()
    expect(reader.IsFileUnstructuredGrid(), f"{path}: VTK does not see an unstructured grid")
    return reader, reader.GetOutput()


def check_file(directory, exp):
    path = os.path.join(directory, exp["file"])
    binary = exp["format"] in ("binary", "xml_binary")
    xml = exp["format"].startswith("xml")
    reader, grid = read(path)
    with open(path, "rb") as f:
        head = f.read(400)
    if xml:
        # the encoding the file declares, so a binary request cannot silently give text (or the reverse)
        want = b'format="binary"' if binary else b'format="ascii"'
        expect(want in head and b'byte_order="BigEndian"' in head, f"{path}: expected {want.decode()} and big-endian in {head[:200]!r}")
    else:
        lines = head.split(b"\n")
        expect(lines[1].decode() == exp["title"], f"{path}: title {lines[1]!r}, expected {exp['title']!r}")
        expect(lines[2].decode() == exp["format"].upper(), f"{path}: format line {lines[2]!r}")

    dim = exp["dim"]
    points = padded(reals(exp["points"]), dim, vector_map(dim))
    expect(grid.GetNumberOfPoints() == len(points), f"{path}: {grid.GetNumberOfPoints()} points, expected {len(points)}")
    same(f"{path}: points", vtk_to_numpy(grid.GetPoints().GetData()), points, binary)

    offsets, conn, types = exp["offsets"], exp["connectivity"], exp["types"]
    expect(grid.GetNumberOfCells() == len(types), f"{path}: {grid.GetNumberOfCells()} cells, expected {len(types)}")
    for c, t in enumerate(types):
        expect(grid.GetCellType(c) == t, f"{path}: cell {c} has type {grid.GetCellType(c)}, expected {t}")
        ids = grid.GetCell(c).GetPointIds()
        got = [ids.GetId(j) for j in range(ids.GetNumberOfIds())]
        expect(got == conn[offsets[c]:offsets[c + 1]], f"{path}: cell {c} nodes {got}, expected {conn[offsets[c]:offsets[c + 1]]}")

    for loc, data in (("point", grid.GetPointData()), ("cell", grid.GetCellData())):
        wanted = [a for a in exp["arrays"] if a["location"] == loc]
        names = sorted(data.GetArrayName(i) for i in range(data.GetNumberOfArrays()))
        expect(names == sorted(a["name"] for a in wanted), f"{path}: {loc} arrays {names}, expected {sorted(a['name'] for a in wanted)}")
        for a in wanted:
            arr = data.GetArray(a["name"])
            what = f"{path}: {loc} array {a['name']}"
            if a["kind"] == "i":
                expect(arr.GetDataTypeAsString() == "int", f"{what}: type {arr.GetDataTypeAsString()}, expected int")
                same(what, vtk_to_numpy(arr), np.array(a["values"], dtype=np.int64), binary)
                continue
            expect(arr.GetDataTypeAsString() == "double", f"{what}: type {arr.GetDataTypeAsString()}, expected double")
            values = reals(a["values"])
            if a["kind"] == "s":
                want = values.reshape(-1, a["ncomp"])
            elif a["kind"] == "v":
                want = padded(values, a["ncomp"], vector_map(a["ncomp"]))
            else:
                want = padded(values, a["ncomp"] ** 2, tensor_map(a["ncomp"]))
            got = vtk_to_numpy(arr).reshape(want.shape[0], -1)
            same(what, got, want, binary)
    # legacy: the attribute the reader made active proves the VECTORS/TENSORS keywords were understood as such
    for loc, data in (() if xml else (("point", grid.GetPointData()), ("cell", grid.GetCellData()))):
        kinds = {a["kind"] for a in exp["arrays"] if a["location"] == loc}
        for kind, getter in (("v", data.GetVectors), ("t", data.GetTensors)):
            expect((getter() is not None) == (kind in kinds), f"{path}: {loc} data active {kind} attribute missing or unexpected")


def check_pvd(directory, exp):
    pvd = os.path.join(directory, exp["pvd"]["file"])
    root = ET.parse(pvd).getroot()
    expect(root.tag == "VTKFile" and root.get("type") == "Collection", f"{pvd}: root is {root.tag} type={root.get('type')}")
    sets = root.findall("./Collection/DataSet")
    times = [float.fromhex(t) for t in exp["pvd"]["times"]]
    nranks = exp["nranks"]
    expect(len(sets) == len(times) * nranks, f"{pvd}: {len(sets)} DataSets, expected {len(times)} steps x {nranks} parts")
    for i, ds in enumerate(sets):
        step, part = divmod(i, nranks)
        expect(float(ds.get("timestep")) == times[step], f"{pvd}: DataSet {i} timestep {ds.get('timestep')}, expected {times[step]!r}")
        expect(int(ds.get("part")) == part, f"{pvd}: DataSet {i} part {ds.get('part')}, expected {part}")
        name = ds.get("file")
        expect(not os.path.isabs(name), f"{pvd}: DataSet {i} file {name} is not relative")
        _, grid = read(os.path.join(os.path.dirname(pvd), name))
        ranks = vtk_to_numpy(grid.GetCellData().GetArray("rank"))
        expect(np.all(ranks == part), f"{pvd}: DataSet {i} ({name}) holds rank {ranks}, expected part {part}")
    expect(not os.path.exists(pvd + ".tmp"), f"{pvd}.tmp left behind")


def perturbations(exp):
    """Copies of each expected file with one thing changed: a point coordinate, a node, a cell type, and one value of
    each array (reals by one ulp, ints by 1). Yields (file expectation, description)."""
    def nudge(hexes, k):
        hexes[k] = math.nextafter(float.fromhex(hexes[k]), math.inf).hex()

    for f in exp["files"]:
        changes = [("point coordinate", lambda g: nudge(g["points"], len(g["points"]) // 2)),
                   ("node number", lambda g: g["connectivity"].__setitem__(0, g["connectivity"][0] + 1)),
                   ("cell type", lambda g: g["types"].__setitem__(-1, g["types"][-1] + 1))]
        for j, a in enumerate(f["arrays"]):
            def change(g, j=j):
                values = g["arrays"][j]["values"]
                k = len(values) // 2
                if g["arrays"][j]["kind"] == "i":
                    values[k] += 1
                else:
                    nudge(values, k)
            changes.append((f"{a['location']} array {a['name']}", change))
        for what, change in changes:
            g = json.loads(json.dumps(f))
            change(g)
            yield g, f"{f['file']}: {what}"


def main():
    directory = sys.argv[1]
    self_test = "--self-test" in sys.argv[2:]
    with open(os.path.join(directory, "expected.json")) as f:
        exp = json.load(f)
    failures = 0
    if self_test:
        count = 0
        for bad, what in perturbations(exp):
            count += 1
            try:
                check_file(directory, bad)
                print(f"NOT DETECTED: {what} changed")
                failures += 1
            except Mismatch:
                pass
        print(f"self-test: {count - failures} of {count} one-value changes detected")
    else:
        for f in exp["files"]:
            try:
                check_file(directory, f)
                print(f"ok: {f['file']} ({f['format']}, {len(f['types'])} cells, {len(f['arrays'])} arrays)")
            except Mismatch as m:
                print(f"FAIL: {m}")
                failures += 1
        try:
            check_pvd(directory, exp)
            print(f"ok: {exp['pvd']['file']} ({len(exp['pvd']['times'])} steps x {exp['nranks']} parts)")
        except (Mismatch, ET.ParseError) as m:
            print(f"FAIL: {m}")
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
