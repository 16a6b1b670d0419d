"""The one reader of stickslip's results.h5 that every post-processing script uses (layout: docs/output.md).

    from postproc.results import Results
    r = Results("out/omega1-caseA/results.h5")
    tip = r.history("rodpair/sections")      # a History: columns by name, as numpy arrays
    t, u = tip["t"], tip["u_tip"]
    r.meta["version"], r.input_text          # provenance
"""
import os

import h5py
import numpy as np


class History:
    """A time history: a 2D array (rows = output times) with named columns and units."""

    def __init__(self, data, columns, units):
        self.data = np.asarray(data)
        self.columns = list(columns) if columns is not None else [f"c{i}" for i in range(self.data.shape[1])]
        self.units = list(units) if units is not None else [""] * len(self.columns)

    def __getitem__(self, name):
        try:
            return self.data[:, self.columns.index(name)]
        except ValueError:
            raise KeyError(f"no column '{name}'; columns are {self.columns}") from None

    def __len__(self):
        return self.data.shape[0]

    def unit(self, name):
        return self.units[self.columns.index(name)]

    def asdict(self):
        """{column name: column array}."""
        return {c: self.data[:, i] for i, c in enumerate(self.columns)}


def _strings(values):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in values]


class Results:
    """Read-only view of a results.h5 file. Datasets are read on access and returned as numpy arrays."""

    def __init__(self, path):
        if os.path.isdir(path):
            path = os.path.join(path, "results.h5")
        self.path = path
        with h5py.File(path, "r") as f:
            self.meta = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f["meta"].attrs.items()}
            self.input_text = self._string(f, "meta/input")
            self.options = self._string(f, "meta/options")

    @staticmethod
    def _string(f, name):
        if name not in f:
            return None
        v = f[name][()]
        return v.decode() if isinstance(v, bytes) else str(v)

    def history(self, name):
        """The history dataset NAME (e.g. 'rodpair/sections') as a History."""
        with h5py.File(self.path, "r") as f:
            d = f[name]
            cols = _strings(d.attrs["columns"]) if "columns" in d.attrs else None
            units = _strings(d.attrs["units"]) if "units" in d.attrs else None
            return History(d[()], cols, units)

    def array(self, name):
        """A fixed dataset as a numpy array."""
        with h5py.File(self.path, "r") as f:
            return f[name][()]

    def attrs(self, name="/"):
        """Attributes of a group or dataset as a dict."""
        with h5py.File(self.path, "r") as f:
            return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f[name].attrs.items()}

    def has(self, name):
        """Whether the group or dataset NAME exists."""
        with h5py.File(self.path, "r") as f:
            return name in f

    def names(self):
        """Every dataset path in the file."""
        out = []
        with h5py.File(self.path, "r") as f:
            f.visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset) else None)
        return out
