// Renderer for `qsel inspect`: formats the JSON inspect_json built; computes nothing.
#pragma once
#include <string>

#include "qsel/report/render.h"
#include "qsel/report/style.h"

namespace qsel {

std::string render_inspect_text(const ojson& result, const Style& style);

}  // namespace qsel
