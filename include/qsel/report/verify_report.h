// Renderer for `qsel verify`: formats the JSON verify_log built; computes nothing.
#pragma once
#include <string>

#include "qsel/report/render.h"
#include "qsel/report/style.h"

namespace qsel {

std::string render_verify_text(const ojson& result, const Style& style);

}  // namespace qsel
