"""pvbatch script (ParaView 5.11): opens a stickslip fields.pvd the way a user does (File > Open, Apply), reports what
ParaView sees as JSON, and renders the last frame coloured by a point field to a PNG.

    xvfb-run -a pvbatch render_pvd.py FIELDS.pvd OUT.png OUT.json [FIELD]      (FIELD: default displacement)

JSON: times (the reader's time steps), points and cells of the last frame (all pieces merged), and per array
{"association", "components", "range" (per component and, last, of the magnitude, at the last time step)}."""
import json
import sys

from paraview import simple


def render(source, png, time, field):
    """Renders SOURCE at TIME coloured by the magnitude of the point array FIELD into PNG (640 x 360, white)."""
    view = simple.CreateRenderView()
    view.ViewSize = [640, 360]
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.OrientationAxesVisibility = 0
    view.ViewTime = time
    display = simple.Show(source, view)
    simple.ColorBy(display, ("POINTS", field, "Magnitude"))
    display.RescaleTransferFunctionToDataRange(True, False)
    view.ResetCamera()
    simple.Render(view)
    simple.SaveScreenshot(png, view, ImageResolution=[640, 360])


if __name__ == "__main__":
    pvd, png, out = sys.argv[1:4]
    field = sys.argv[4] if len(sys.argv) > 4 else "displacement"
    reader = simple.PVDReader(FileName=pvd)
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    reader.UpdatePipeline(times[-1])
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(times[-1])
    info = merged.GetDataInformation()
    arrays = {}
    for assoc, infos in (("point", merged.PointData), ("cell", merged.CellData)):
        for name in infos.keys():
            a = infos[name]
            n = a.GetNumberOfComponents()
            ranges = [list(a.GetRange(c)) for c in range(n)] + ([list(a.GetRange(-1))] if n > 1 else [])
            arrays[name] = {"association": assoc, "components": n, "range": ranges}
    result = {"times": times, "points": info.GetNumberOfPoints(), "cells": info.GetNumberOfCells(), "arrays": arrays}

    render(merged, png, times[-1], field)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
