"""cupy.testing for the CuPy suite harness: loom's own implementation of the helpers CuPy's
tests use (the NumPy-vs-CuPy comparison decorators, the dtype and order loops,
parameterize, arrays of known contents, fixed random seeds, requirement checks), with CuPy's
semantics (cupy/testing in CuPy) and none of its code."""
from ._array import (assert_allclose, assert_array_almost_equal, assert_array_almost_equal_nulp,  # noqa: F401
                     assert_array_equal, assert_array_less, assert_array_list_equal, assert_array_max_ulp)
from ._compare import (numpy_cupy_allclose, numpy_cupy_array_almost_equal,  # noqa: F401
                       numpy_cupy_array_almost_equal_nulp, numpy_cupy_array_equal, numpy_cupy_array_less,
                       numpy_cupy_array_list_equal, numpy_cupy_array_max_ulp, numpy_cupy_equal, numpy_cupy_raises)
from ._helpers import (AssertFunctionIsCalled, NumpyAliasBasicTestBase, NumpyAliasValuesTestBase,  # noqa: F401
                       assert_function_is_called, assert_warns, installed, multi_gpu, numpy_satisfies, shaped_arange,
                       shaped_linspace, shaped_random, shaped_reverse_arange, shaped_sparse_random, slow, with_requires)
from ._loops import (for_all_dtypes, for_all_dtypes_combination, for_CF_orders, for_complex_dtypes,  # noqa: F401
                     for_contiguous_axes, for_dtypes, for_dtypes_combination, for_float_dtypes, for_int_dtypes,
                     for_int_dtypes_combination, for_orders, for_signed_dtypes, for_signed_dtypes_combination,
                     for_unsigned_dtypes, for_unsigned_dtypes_combination)
from ._parameterized import parameterize, product, product_dict  # noqa: F401
from ._random import fix_random, generate_seed  # noqa: F401
from . import _condition, _hypothesis  # noqa: F401
