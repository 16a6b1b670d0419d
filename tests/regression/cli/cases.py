"""Solver-specific bad inputs for check_bad_inputs.py: (name, study input, (regex, replacement), expected message regex).
Each case changes one thing in a valid study input, so the case follows the inputs as they evolve."""
DERIVED = [
    # schema violations: an element the schema does not know, and a number that is not a number
    ("schema-unknown-element", "inputs/rodpair/omega1-caseA.xml", (r"<load>", "<lod/><load>"), r"does not match the schema.*lod"),
    ("schema-not-a-number", "inputs/rodpair/omega1-caseA.xml", (r'length="50"', 'length="fifty"'), r"does not match the schema.*length"),
    # physical sanity rules
    ("negative-modulus", "inputs/rodpair/omega1-caseA.xml", (r'<rod1 EA="1e9"', '<rod1 EA="-1e9"'), r"EA"),
    ("negative-young-modulus", "inputs/explicit/neohookean_block.xml", (r'E="[0-9.e+]+"', 'E="-2e6"'), r"\bE\b"),
    ("mu_k-above-mu_s", "inputs/rodpair/omega1-caseA.xml", (r'mu_k="0.6"', 'mu_k="0.7"'), r"mu_k.*mu_s"),
    ("mu_k-above-mu_s-lugre", "inputs/slider2d/springslider-rigid.xml", (r'mu_k="[0-9.]+"', 'mu_k="0.9"'), r"mu_k.*mu_s"),
    ("zero-time-step", "inputs/bars2020/harmonic-muN1.xml", (r"<time ", '<time dt="0" '), r"dt|schema"),
    ("missing-mesh-file", "inputs/explicit/box_gmsh.xml", (r'file="../../meshes/box.msh"', 'file="../../meshes/no-such-mesh.msh"'),
     r"no-such-mesh\.msh"),
]
