"""scipy.ndimage's names on loom arrays: filters with SciPy's boundary modes, spline
interpolation (orders 0-5) and geometric transforms, labels and measurements, grey-scale
and binary morphology."""
from ._filters import (convolve, convolve1d, correlate, correlate1d, gaussian_filter, gaussian_filter1d,
                       uniform_filter, uniform_filter1d)
from ._rank import (maximum_filter, maximum_filter1d, median_filter, minimum_filter, minimum_filter1d,
                    percentile_filter, rank_filter)

__all__ = ["convolve", "convolve1d", "correlate", "correlate1d", "gaussian_filter", "gaussian_filter1d",
           "maximum_filter", "maximum_filter1d", "median_filter", "minimum_filter", "minimum_filter1d",
           "percentile_filter", "rank_filter", "uniform_filter", "uniform_filter1d"]
from ._interpolation import (affine_transform, map_coordinates, rotate, shift, spline_filter, spline_filter1d,
                             zoom)

__all__ += ["affine_transform", "map_coordinates", "rotate", "shift", "spline_filter", "spline_filter1d", "zoom"]
from ._measurements import center_of_mass, generate_binary_structure, label, mean, sum_labels

__all__ += ["center_of_mass", "generate_binary_structure", "label", "mean", "sum_labels"]
from ._morphology import (black_tophat, grey_closing, grey_dilation, grey_erosion, grey_opening,
                          morphological_gradient, morphological_laplace, white_tophat)

__all__ += ["black_tophat", "grey_closing", "grey_dilation", "grey_erosion", "grey_opening", "morphological_gradient",
            "morphological_laplace", "white_tophat"]
from ._binary import binary_closing, binary_dilation, binary_erosion, binary_opening

__all__ += ["binary_closing", "binary_dilation", "binary_erosion", "binary_opening"]
