// Text renderers for the browse commands. They format the command's JSON result
// for people and never compute anything themselves.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "qsel/loader/marks.h"
#include "qsel/report/style.h"

namespace qsel {

using ojson = nlohmann::ordered_json;

// `data` with object keys in the order they appear in the source file.
ojson in_source_order(const nlohmann::json& data, const Marks& marks, const std::string& pointer = "");

// `j` with every string (keys too) made safe for a terminal or a CI log
// (printable); `keep_newlines` for renderers that print multi-line text indented.
ojson terminal_safe(const ojson& j, bool keep_newlines = false);

// A scalar as a table cell: numbers without trailing zeros, null as "-", lists joined.
std::string cell_text(const ojson& v);
// "label" in bold, padded to `width` columns (one space at least), then `text` and a newline:
// the label column of inspect's and verify's text reports.
std::string labelled_line(const Style& st, std::string_view label, const std::string& text, std::size_t width);
// "id  kind  name" and a newline, the name wrapped to the width under itself (under
// two spaces when it starts past half the width): the first line of show and explain.
std::string heading_line(const Style& st, const std::string& id, const std::string& kind, const std::string& name);
// A string's text, or "" for anything else (a field that is a string or absent).
std::string string_or_empty(const ojson& v);
// A string's text, or any other value as JSON, made printable for a terminal.
std::string printable_value(const ojson& v);

// A record's fields as indented YAML-like text.
std::string render_fields(const ojson& data, const Style& style, int indent = 2);

std::string render_list(const ojson& result, const Style& style);
// The same list as a Markdown reference: every column (detail ones too), "—" for
// what the record does not give, and each record's sources as numbered links.
std::string render_list_markdown(const ojson& result);
std::string render_show(const ojson& result, const Style& style);

}  // namespace qsel
