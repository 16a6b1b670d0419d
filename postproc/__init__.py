"""stickslip post-processing: read results.h5 (postproc.results) and make the figures of the studies."""
