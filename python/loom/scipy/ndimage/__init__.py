"""scipy.ndimage's names on loom arrays: filters with SciPy's boundary modes (linear, rank,
derivative, Fourier), spline interpolation (orders 0-5) and geometric transforms, labels and
per-label measurements, grey-scale and binary morphology."""
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
from ._binary_more import binary_fill_holes, binary_hit_or_miss, binary_propagation, iterate_structure

__all__ += ["binary_fill_holes", "binary_hit_or_miss", "binary_propagation", "iterate_structure"]
from ._derivatives import (gaussian_gradient_magnitude, gaussian_laplace, generic_gradient_magnitude,
                           generic_laplace, laplace, prewitt, sobel)

__all__ += ["gaussian_gradient_magnitude", "gaussian_laplace", "generic_gradient_magnitude", "generic_laplace",
            "laplace", "prewitt", "sobel"]
from ._fourier import fourier_ellipsoid, fourier_gaussian, fourier_shift, fourier_uniform

__all__ += ["fourier_ellipsoid", "fourier_gaussian", "fourier_shift", "fourier_uniform"]
from ._label_stats import (extrema, find_objects, histogram, labeled_comprehension, maximum, maximum_position, median,
                           minimum, minimum_position, standard_deviation, value_indices, variance)

sum = sum_labels  # scipy.ndimage.sum, SciPy's older name  # noqa: A001
__all__ += ["extrema", "find_objects", "histogram", "labeled_comprehension", "maximum", "maximum_position", "median",
            "minimum", "minimum_position", "standard_deviation", "sum", "value_indices", "variance"]
from ._distance import distance_transform_edt

__all__ += ["distance_transform_edt"]
from ._generic import generic_filter, generic_filter1d

__all__ += ["generic_filter", "generic_filter1d"]
