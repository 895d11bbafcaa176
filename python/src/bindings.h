// Shared declarations of the nanobind bindings: one init_<family>() per source file,
// and the argument converters every family uses (dtype=, device=, shapes, scalars).
#pragma once
#include <nanobind/nanobind.h>

#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loom/loom.h"

namespace nb = nanobind;

namespace loom::py {

void init_error(nb::module_& m);
/// Sets the Python error for a C++ exception as nanobind would (loom's types first), for
/// code that CPython calls directly (type slots) rather than through nanobind.
void set_python_error(const std::exception_ptr& p) noexcept;
void init_dtype(nb::module_& m);
void init_device(nb::module_& m);
void init_memory(nb::module_& m);
void init_stream(nb::module_& m);
void init_array(nb::module_& m, nb::class_<Array>& cls);
void init_interop(nb::module_& m, nb::class_<Array>& cls);
void init_creation(nb::module_& m);

/// Op families (elementwise, reductions, indexing, ...) register themselves from their own
/// file, so adding a family never edits module.cpp:
///   LOOM_BINDING_FAMILY(sorting, 40) { m.def(...); cls.def(...); }
/// Families run after the core bindings, in increasing `order` (ties by name).
using FamilyInit = void (*)(nb::module_& m, nb::class_<Array>& cls);
struct BindingFamily {
  BindingFamily(const char* name, int order, FamilyInit init);
};
void init_families(nb::module_& m, nb::class_<Array>& cls);
#define LOOM_BINDING_FAMILY(name, order)                                                      \
  static void loom_init_family_##name(nb::module_& m, nb::class_<::loom::Array>& cls);     \
  static const ::loom::py::BindingFamily loom_family_##name(#name, order, &loom_init_family_##name); \
  static void loom_init_family_##name([[maybe_unused]] nb::module_& m,                      \
                                      [[maybe_unused]] nb::class_<::loom::Array>& cls)

// ---- dtypes (dtype.cpp) -------------------------------------------------------------
/// The Python object of a loom dtype (`loom.float32`); a new reference.
nb::object dtype_object(DType dt);
/// Accepts loom dtypes, NumPy dtypes and scalar types, ml_dtypes.bfloat16, strings and
/// the Python types bool/int/float; raises TypeError for anything else.
DType to_dtype(nb::handle h);
/// None -> nullopt, else to_dtype().
std::optional<DType> to_optional_dtype(nb::handle h);
/// The numpy.dtype of a loom dtype (ml_dtypes.bfloat16 for bfloat16); a new reference.
nb::object numpy_dtype(DType dt);
/// The numpy module and ml_dtypes' bfloat16 dtype, imported once.
nb::handle numpy_module();
/// NumPy's ComplexWarning ("Casting complex values to real discards the imaginary part")
/// when a cast from `from` to `to` drops an imaginary part; throws if warnings are errors.
void warn_complex_discard(DType from, DType to);

// ---- devices (device.cpp) -----------------------------------------------------------
/// Accepts a loom Device or a string ("cpu", "gpu", "gpu:1", "cuda:0").
Device to_device(nb::handle h);
/// None -> nullopt, else to_device().
std::optional<Device> to_optional_device(nb::handle h);

// ---- arguments (creation.cpp) -------------------------------------------------------
/// An int or a sequence of ints, parsed without Python-level helpers (hot path of empty()).
Shape to_shape(nb::handle h);
/// A Python or NumPy scalar (bool, int, float) or a size-1 loom array as a loom Scalar.
Scalar to_scalar(nb::handle h);
/// The dtype NumPy gives a fill value alone (np.array(v).dtype).
DType scalar_dtype(nb::handle h);
/// Raises OverflowError when a Python int does not fit an integer dtype (NumPy 2 rule).
void check_int_fits(nb::handle value, DType dt);
/// asarray()'s conversion; returns `obj` itself when nothing needs to change.
/// copy: true always copies, false never does (ValueError if needed), nullopt when needed.
nb::object convert_to_array(nb::handle obj, std::optional<DType> dtype,
                            std::optional<Device> device, std::optional<bool> copy);

/// A Python function of a list of arrays returning a list of arrays, as the transforms take
/// a function (loom::ArrayFn); each call takes the GIL (python/src/transforms.cpp).
ArrayFn python_array_fn(nb::object fn);

/// An op argument as an Array: loom arrays as they are; NumPy arrays, lists and scalars
/// converted like asarray() onto `device` (default: the default device).
Array to_array(nb::handle h, std::optional<Device> device = std::nullopt);
/// Two operands as arrays on one device: the loom array's (x1's when both are), the other
/// converted onto it, so `f(numpy_array, x)` follows x as `f(x, numpy_array)` does.
std::pair<Array, Array> to_array_pair(nb::handle x1, nb::handle x2);
/// None -> nullopt, else to_array() onto `device`.
std::optional<Array> to_optional_array(nb::handle h, std::optional<Device> device);
/// A sequence of array-likes as arrays on one device (the first loom array's); a loom array
/// yields its rows, as NumPy iterates it (shape_ops.cpp).
std::vector<Array> to_arrays(nb::handle seq);
/// A Python list of the arrays.
nb::object arrays_list(std::vector<Array> v);
/// axis=None -> nullopt; an int -> {axis}; a tuple/list of ints -> those axes. Raises
/// TypeError for other types (bools included, as NumPy) and AxisError for ints beyond
/// 64 bits, naming `op`.
std::optional<std::vector<int64_t>> to_axes(nb::handle h, const char* op = "axis");

// ---- scalar arguments (args.cpp) ----------------------------------------------------
// Each raises TypeError "[op] arg must be ..., not <type>" (OverflowError for ints beyond
// 64 bits) instead of nb::cast's bare std::bad_cast.
[[noreturn]] void raise_arg_type(const char* op, const char* arg, const char* expected, nb::handle got);
/// True/False, NumPy bools, or the ints 0 and 1.
bool to_bool_arg(nb::handle h, const char* op, const char* arg);
std::optional<bool> to_optional_bool_arg(nb::handle h, const char* op, const char* arg);
/// A Python int or any __index__ object (not a float).
int64_t to_int_arg(nb::handle h, const char* op, const char* arg);
/// None -> nullopt, else to_int_arg() / a float (any object with __float__).
std::optional<int64_t> to_optional_int_arg(nb::handle h, const char* op, const char* arg);
std::optional<double> to_optional_float_arg(nb::handle h, const char* op, const char* arg);
std::string to_str_arg(nb::handle h, const char* op, const char* arg);
/// hasattr() that lets exceptions other than AttributeError propagate (a failing
/// __cuda_array_interface__ property must not look like a missing one).
bool has_attr_strict(nb::handle h, const char* name);
/// out=: None, a loom array or a 1-tuple holding one.
std::optional<Array> to_out_arg(nb::handle h, const char* op);
/// NumPy's out= of a function computed apart: `r` itself when out is None, else r written into
/// out (which must have r's shape; ValueError naming `op` otherwise) and out itself returned.
nb::object write_out(nb::handle out, const Array& r, const char* op);

// ---- host views (array.cpp) ---------------------------------------------------------
/// A NumPy array over host memory at `data` (byte strides), kept alive by `owner`.
nb::object host_ndarray(void* data, DType dt, const Shape& shape, const Strides& strides,
                        nb::handle owner);
/// NumPy copy or view of an array: a view for CPU arrays unless `copy`, a copy otherwise.
/// `a` as a NumPy array: a view of a cpu() array unless `copy`. A view handed to the user
/// (`escapes`) lets NumPy write the buffer behind loom's back: the buffer is then untracked
/// (runtime/memory.h); a view only read here (repr) is not.
nb::object to_numpy(const Array& a, bool copy, bool escapes = true);

// ---- foreign memory (foreign.cpp, interop.cpp) ---------------------------------------
/// Wraps memory owned elsewhere as an Array without copying. `elem0` is element 0;
/// `release` runs (with the GIL held) when the last view dies.
Array wrap_foreign(void* elem0, DType dt, const Shape& shape, const Strides& strides,
                   const Device& device, std::function<void()> release);
/// Copies of NumPy arrays of any layout; zero-copy on cpu() when writable and aligned.
Array from_numpy(nb::handle arr, std::optional<DType> dtype, const Device& device,
                 std::optional<bool> copy);
/// Zero-copy import of an object with __dlpack__ (or a DLPack capsule).
Array from_dlpack_object(nb::handle obj);
/// Zero-copy import of an object with __cuda_array_interface__.
Array from_cuda_array_interface(nb::handle obj);

}  // namespace loom::py
