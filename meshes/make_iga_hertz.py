"""Writes the input of the 2D Hertz test between two NURBS bodies (docs/validation/contact.md): an elastic block as a
degree-1 patch whose control points are a graded grid (the right half [0, 0.1] x [-0.1, 0] m, cells of HF within 8 mm of
the origin growing linearly to 1 cm at 5 cm, as meshes/hertz_block.geo) and an elastic cylinder of radius 0.05 m (centre
(0, 0.05)) as the exact quarter annulus from r = 0.02 m to 0.05 m below its centre (degree 2, REFINE radial x angular
knot spans). The block's top is the slave side, the cylinder's outer arc the NURBS master. With DEGREE 2 the block is
elevated to degree 2 (C0 at its knots): its top is then a slave patch face of degree 2 (weighted gaps, reactions at the
Gauss points' projections; docs/theory.md). With DEGREE "q4" the block is a Lagrange mesh of Q4 elements on the same
grid, written to the stickslip mesh file MESH (node sets block_all, block_left, block_bottom, side sets block_left,
block_bottom, block_top), which the input reads beside the cylinder's patch (<mesh file="MESH">, the path as given,
relative to the input): the same discrete model as the degree-1 patch, so the two must agree to round-off.

    python3 meshes/make_iga_hertz.py HF RADIAL ANGULAR [DEGREE] > OUT.xml
    python3 meshes/make_iga_hertz.py HF RADIAL ANGULAR q4 MESH > OUT.xml"""
import os
import sys

import numpy as np

L, R, RI, YC = 0.1, 0.05, 0.02, 0.05


def graded(hf, hc=1e-2, d1=8e-3, d2=5e-2, length=L):
    """Cell boundaries 0 .. LENGTH: size HF up to D1, growing linearly to HC at D2, HC beyond (the last cells stretched
    to end at LENGTH)."""
    x = [0.0]
    while x[-1] < length - 1e-12:
        s = x[-1]
        h = hf if s < d1 else (hc if s > d2 else hf + (hc - hf) * (s - d1) / (d2 - d1))
        x.append(s + h)
    x = np.array(x)
    # stretch the cells beyond d2 (or all) so that the last boundary is LENGTH
    k = np.searchsorted(x, d2)
    x[k:] = x[k] + (x[k:] - x[k]) * (length - x[k]) / (x[-1] - x[k])
    return x


def q4_mesh(gx, gy):
    """The stickslip mesh file text of the Q4 block on the grid GX x GY (nodes x fastest, as the patch's control net)."""
    nx, ny = len(gx), len(gy)
    nodes = "\n".join(f"    {x:.17g} {y:.17g}" for y in gy for x in gx)
    conn = "\n".join(f"    {j * nx + i} {j * nx + i + 1} {(j + 1) * nx + i + 1} {(j + 1) * nx + i}"
                     for j in range(ny - 1) for i in range(nx - 1))
    ex, ey = nx - 1, ny - 1
    ints = lambda v: " ".join(str(k) for k in v)
    sides = lambda els, f: "  ".join(f"{e} {f}" for e in els)
    left = [j * ex for j in range(ey)]
    bottom = list(range(ex))
    top = [(ey - 1) * ex + i for i in range(ex)]
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- written by meshes/make_iga_hertz.py: the Hertz block as Q4 elements (the degree-1 patch's grid) -->
<mesh dim="2">
  <nodes>
{nodes}
  </nodes>
  <block name="block" id="1" type="Q4">
{conn}
  </block>
  <nodeset name="block_all">{ints(range(nx * ny))}</nodeset>
  <nodeset name="block_left">{ints(j * nx for j in range(ny))}</nodeset>
  <nodeset name="block_bottom">{ints(range(nx))}</nodeset>
  <sideset name="block_left">{sides(left, 3)}</sideset>
  <sideset name="block_bottom">{sides(bottom, 0)}</sideset>
  <sideset name="block_top">{sides(top, 2)}</sideset>
</mesh>
"""


def model(description, name, lower, nr, na, rollers, pushed, lift, mesh_attr=""):
    """The <explicit> element of a Hertz input: the lower body's patch NAME (the XML text LOWER, its top the slave side
    NAME_right or NAME_top), the upper NURBS cylinder of NR x NA knot spans (the master), the lower body held in x on
    the node set ROLLERS and pushed up by LIFT (m) on PUSHED, frictionless, penalty 1e11 Pa/m."""
    c = np.sqrt(0.5)
    cyl = [(0, YC - RI, 1), (0, YC - R, 1), (RI, YC - RI, c), (R, YC - R, c), (RI, YC, 1), (R, YC, 1)]
    cylcps = "  ".join(f"{x:.17g} {y:.17g} {w:.17g}" for x, y, w in cyl)
    slave = f"{name}_top" if name == "block" else f"{name}_right"
    return f"""<explicit>
  <description>{description}</description>
  <mesh{mesh_attr}>
{lower}
    <patch name="cyl" degree="2" refine="{nr} {na}">
      <knots degree="1" values="0 0 1 1"/>
      <knots degree="2" values="0 0 0 1 1 1"/>
      <controlpoints values="{cylcps}"/>
    </patch>
  </mesh>
  <block name="{name}" material="linear_elastic" E="1e7" nu="0.3" rho="1000" stress_state="plane_strain"/>
  <block name="cyl" material="linear_elastic" E="1e8" nu="0.3" rho="1e4" stress_state="plane_strain"/>
  <displacement nodeset="{rollers}" component="x"/>
  <displacement nodeset="{pushed}" component="x"/>
  <displacement nodeset="{pushed}" component="y">
    <function type="smoothstep" t0="0" t1="0.026" value="{lift}"/>
  </displacement>
  <displacement nodeset="cyl_left" component="all"/>
  <displacement nodeset="cyl_bottom" component="x"/>
  <contact name="cylinder" sideset="{slave}" master="cyl_right" distribution="point" penalty="1e11">
    <friction law="coulomb" mu_s="0" mu_k="0" eps_t="1e6"/>
  </contact>
  <time end="0.026" safety="0.9"/>
  <output histories="100" fields="1000000"/>
</explicit>"""


def main():
    hf, nr, na = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    if len(sys.argv) > 5 and sys.argv[4] == "q4":
        lagrange(hf, nr, na, sys.argv[5])
        return
    deg = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    args = f"{hf:g} {nr} {na}" + (f" {deg}" if deg != 1 else "")
    elevate = f' degree="{deg}"' if deg != 1 else ""
    what = "degree-1 patch" if deg == 1 else f"patch of degree {deg}, C0 at the knots,"
    gx = graded(hf)
    gy = -graded(hf)[::-1]  # from the base y = -0.1 up to the top y = 0
    knots = lambda n: " ".join(["0"] + [f"{v:.17g}" for v in np.linspace(0, 1, n)] + ["1"])
    cps = " ".join(f"{x:.17g} {y:.17g} 1" for y in gy for x in gx)
    lower = f"""    <patch name="block"{elevate}>
      <knots degree="1" values="{knots(len(gx))}"/>
      <knots degree="1" values="{knots(len(gy))}"/>
      <controlpoints values="{cps}"/>
    </patch>"""
    print(f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- written by meshes/make_iga_hertz.py {args}. Hertz contact in 2D between two NURBS bodies (module contact,
     docs/validation/contact.md): an elastic cylinder of radius R = 0.05 m (exact quarter annulus below its centre
     (0, 0.05), degree 2, {nr} x {na} knot spans, E = 1e8 Pa, rho = 1e4 kg/m^3: the block's wave speed; held at its inner
     arc r = 0.02 m) pressed by an elastic block ({what} on a graded grid, {len(gx) - 1} x {len(gy) - 1} cells of
     {hf:g} m near the contact; E = 1e7 Pa, nu = 0.3, rho = 1000 kg/m^3, plane strain), right halves with the symmetry line
     x = 0. The block's top is the slave side, the cylinder's outer arc the deformable NURBS master (node-to-segment,
     distribution="point"). The base is pushed up by 1 mm with a C1 smoothstep over 0.026 s, as contact_hertz.xml.
     Frictionless. tests/regression/contact/check_contact_hertz.py compares a and p0 with Hertz for E* of both bodies. -->
{model("Hertz: elastic NURBS cylinder on an elastic NURBS block (plane strain, half model)", "block", lower, nr, na,
        "block_left", "block_bottom", "1e-3")}""")


def lagrange(hf, nr, na, mesh):
    """The input with the block as the Q4 mesh file MESH (written too) beside the cylinder's patch."""
    gx, gy = graded(hf), -graded(hf)[::-1]
    with open(mesh, "w") as f:
        f.write(q4_mesh(gx, gy))
    body = model("Hertz: elastic NURBS cylinder on an elastic Q4 block (plane strain, half model)", "block", "", nr, na,
                 "block_left", "block_bottom", "1e-3", f' file="{mesh}"').replace(">\n\n", ">\n")
    print(f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- written by meshes/make_iga_hertz.py {hf:g} {nr} {na} q4 {os.path.basename(mesh)}. The Hertz case of this script with the
     block as a Lagrange mesh of Q4 elements ({os.path.basename(mesh)}: {len(gx) - 1} x {len(gy) - 1} cells of {hf:g} m near
     the contact, the grid of the degree-1 patch) beside the NURBS cylinder: Lagrange slave nodes on a NURBS master in one
     mesh (the patch's control points first, then the file's nodes). The same discrete model as the all-patch input, so
     tests/regression/contact/tests.cmake compares the two runs (round-off) and a, p0 with Hertz. -->
{body}""")


if __name__ == "__main__":
    main()
