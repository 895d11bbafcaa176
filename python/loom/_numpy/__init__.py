"""loom as NumPy code, the Array API standard and `inspect` see it (private: loom/__init__.py
installs the protocols and re-exports what is public).

  protocols.py   __array_ufunc__ and __array_function__: np.sin(x), np.mean(x) run loom's ops
  ufuncs.py      the ufunc half: ufuncs and their reduce, accumulate, outer and at methods
  lookup.py      the loom function behind a NumPy name
  pyfuncs.py     NumPy's functions about Python objects (callables, iterables, dtypes, shapes)
  array_api.py   the Array API standard's namespace glue (__array_namespace__, its constants)
  einsum.py      numpy.einsum's interleaved form and out=, dtype=, order=, casting=, optimize=
  flat_partition.py x.flat, x.partition/argpartition, partition(axis=None)
  linalg_shapes.py  LinAlgError for non-square or 1-d input to eig, inv, det, ...; lstsq's int32 rank
  linspace.py    numpy.linspace's retstep=, axis=, array and complex ends
  out_keywords.py  copyto(casting=, where=), dot(out=), the ufunc keywords of float_power, ldexp, matmul, ...
  pickling.py    pickle of arrays (data and device name), dtypes and devices
  quantile.py    quantile/percentile with every NumPy method, out=, overwrite_input=; complex (nan)median
  setitem.py     x[key] = nan or inf on a complex array (around the binding's integer check)
  signatures.py  signatures inspect.signature reads for every bound function (help(), IDEs)
"""
