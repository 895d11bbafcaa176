// The parts of complex arrays (NumPy's real, imag, angle, and the type queries). real and
// imag of a complex array are views of its buffer, as NumPy's: writing through them writes
// the array. The arithmetic itself (conjugate, absolute, exp, ...) is in the op table.
#pragma once
#include "loom/array/array.h"

namespace loom {

/// The real parts: a view for a complex array (float32 for complex64), `a` itself otherwise.
Array real(const Array& a);
/// The imaginary parts: a view for a complex array, new zeros of a's dtype otherwise.
Array imag(const Array& a);
/// The counterclockwise angle from the positive real axis, in (-pi, pi] (degrees with
/// `deg`): arctan2(imag, real), float64 for integer input as NumPy.
Array angle(const Array& a, bool deg = false);
/// NumPy's iscomplex/isreal: elementwise, whether the imaginary part is nonzero / zero.
Array iscomplex(const Array& a);
Array isreal(const Array& a);

}  // namespace loom
