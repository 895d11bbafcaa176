// Superseded by backend/creation.h (issue 20). Kept only while files outside the families
// moved there (runtime/cuda, the indexing, sorting and shape families) still include it;
// delete it once none does.
#pragma once
#include <memory>
#include <string>

#include "loom/backend/creation.h"
