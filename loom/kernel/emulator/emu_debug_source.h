// Debug mode's source rewrite (DESIGN.md §4): the pointer parameters of each __global__
// function become loom_emu::Checked pointers (loom_cuda_emu.h), which check every access
// against the byte range of the loom array passed for them. Text in, text out.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace loom::cpu_emulator {

/// One parameter list of a __global__ function: the text between its parentheses,
/// [begin, end) in the source.
struct ParamList {
  size_t begin = 0, end = 0;
};

/// `code` with each pointer parameter of `lists` declared as a Checked pointer:
/// `const float* __restrict__ x` becomes `loom_emu::Checked<const float> x`. `stripped` is
/// `code` with comments blanked (same length). Newlines are kept, so line numbers stay the
/// user's. Pointers to void, references, arrays and function pointers are left as they are.
std::string checked_parameters(const std::string& code, const std::string& stripped, std::vector<ParamList> lists);

/// `code` with `reinterpret_cast` and `const_cast` (which never call conversion functions,
/// so would not accept a Checked pointer) replaced by loom_emu's function templates that
/// cast a Checked pointer's plain pointer and anything else as the keyword does. `stripped`
/// as above; comments and strings are left alone.
std::string checked_casts(const std::string& code, const std::string& stripped);

/// A name expression that picks an overload by a cast, "(void (*)(float*, int))twice",
/// with the pointer parameters of its function type made Checked pointers, as the kernel's
/// own are in debug mode (else the cast would name no kernel); other expressions unchanged.
std::string checked_name_expression(const std::string& expression);

/// The name of each parameter of `list` that is rewritten to a Checked pointer, "" for the
/// others (for messages: "argument 0 (a)").
std::vector<std::string> pointer_parameter_names(const std::string& stripped, ParamList list);

}  // namespace loom::cpu_emulator
