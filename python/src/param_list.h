// The Python side of kernel/param_list.h, shared by the ElementwiseKernel and
// ReductionKernel bindings: call arguments to UserArgs, streams, parameter lists as
// strings, results as Python objects.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "loom/kernel/param_list.h"
#include "loom/runtime/stream.h"

namespace loom::py {

/// Converts a call's positional arguments: loom arrays and Python/NumPy scalars; a host
/// NumPy array or anything else raises TypeError prefixed with `label`.
std::vector<UserArg> to_user_args(const std::string& label, const nb::args& args);
/// The stream= argument (None: the current stream, returned as null); `holder` keeps it.
const Stream* to_stream(const std::string& label, nb::handle h, std::optional<Stream>& holder);
/// A parameter list as written, one "[raw ]type name" string each.
nb::tuple param_strings(const std::vector<KernelParam>& ps);
/// One output as itself (unless `as_tuple`), several as a tuple.
nb::object results(std::vector<Array> outs, bool as_tuple);
/// "[kind name] ", the prefix of every message about a kernel.
std::string label_of(const char* kind, const std::string& name);

}  // namespace loom::py
