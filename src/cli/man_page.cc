// `qsel man`: the manual page in roff (man(7)), generated from the CLI model
// so it never drifts from --help.
#include <fmt/format.h>

#include "cli_model.h"
#include "qsel/core/text.h"

namespace qsel {
namespace {

// Text for roff: backslashes escaped, hyphens as \-, non-ASCII as \[uXXXX],
// no line starting with a control character.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else if (u >= 0x80) {  // one UTF-8 sequence (invalid bytes are dropped)
      Utf8Char ch = utf8_at(text, i);
      if (ch.valid) out += fmt::format("\\[u{:04X}]", static_cast<std::uint32_t>(ch.code_point));
      i += ch.length - 1;
    } else if (u >= 0x20 || c == '\n') out += c;
  }
  return out;
}

std::string option_item(const CliOption& o) {
  std::string head;
  for (std::size_t i = 0; i < o.names.size(); ++i) head += fmt::format("{}\\fB{}\\fR", i ? ", " : "", roff(o.names[i]));
  if (head.empty()) head = fmt::format("\\fI{}\\fR", roff(o.value));
  else if (!o.value.empty()) head += fmt::format(" \\fI{}\\fR", roff(o.value));
  return fmt::format(".TP\n{}\n{}\n", head, roff(o.help));
}

}  // namespace

std::string man_page(const CliModel& m, const std::string& version) {
  std::string s = fmt::format(".TH QSEL 1 \"\" \"qsel {}\" \"User Commands\"\n", roff(version));
  s += ".SH NAME\nqsel \\- quantization advisor and record linter for LLM deployment\n";
  s += ".SH SYNOPSIS\n\\fBqsel\\fR [\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n";
  s += ".SH DESCRIPTION\n"
       "qsel answers the deployer's question: for this GPU and this model, which quantization format, served by which "
       "engine, through which kernel, and what will bite me? Answers come from a corpus of cited records carried in the "
       "binary; every line names the records and the rule it comes from, and every number its evidence grade. "
       "Curators keep the corpus correct with \\fBqsel lint\\fR.\n";
  s += ".SH GLOBAL OPTIONS\nThese may be given before or after the command.\n";
  for (const auto& o : m.global) s += option_item(o);
  s += ".SH COMMANDS\n";
  for (const auto& c : m.commands) {
    std::string usage = "qsel " + c.name + " [OPTIONS]";
    for (const auto& p : c.positionals) usage += " " + p.value;
    s += fmt::format(".SS {}\n{}\n.PP\n\\fB{}\\fR\n", roff(c.name), roff(c.summary), roff(usage));
    for (const auto& p : c.positionals) s += option_item(p);
    for (const auto& o : c.options) s += option_item(o);
    if (!c.formats.empty()) {
      std::string f;
      for (std::size_t i = 0; i < c.formats.size(); ++i) f += (i ? ", " : "") + c.formats[i];
      s += fmt::format(".TP\nFormats\n{} (the first is the default)\n", roff(f));
    }
    if (!c.examples.empty()) {
      s += ".PP\nExamples:\n.RS\n.nf\n";
      for (const auto& e : c.examples) s += roff(e) + "\n";
      s += ".fi\n.RE\n";
    }
  }
  s += ".SH EXIT STATUS\n.TP\n0\nSuccess: an answer, a clean lint.\n"
       ".TP\n1\nFindings (lint), no viable answer (recommend), or a kernel other than the predicted one (verify).\n"
       ".TP\n2\nUsage or input error: one line naming the file, line and column, and what was expected.\n"
       ".TP\n3\nUnverified (verify only): the log cannot settle which kernel ran.\n";
  s += ".SH ENVIRONMENT\n.TP\n\\fBQSEL_DATA\\fR\nA corpus folder to use instead of the embedded corpus (as \\fB\\-\\-data\\fR).\n"
       ".TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, no colour under \\fB\\-\\-color auto\\fR.\n"
       ".TP\n\\fBFORCE_COLOR\\fR\nWhen set, not empty and not 0, colour under \\fB\\-\\-color auto\\fR even when output is not a "
       "terminal (NO_COLOR wins when both are set).\n"
       ".TP\n\\fBTERM\\fR\n\\fBdumb\\fR turns colour off under \\fB\\-\\-color auto\\fR.\n";
  s += ".SH FILES\n.TP\n\\fI.qsel.yaml\\fR\nLint configuration, found at or above the first linted path: select, ignore, "
       "strict, per-file-ignores, baseline.\n"
       ".TP\n\\fI/usr/share/qsel/schemas\\fR\nJSON Schemas of the records and of every \\fB\\-\\-format json\\fR output.\n"
       ".TP\n\\fI/usr/share/qsel/data\\fR\nThe record corpus the binary embeds, as YAML files: what \\fBqsel lint /usr/share/qsel/data\\fR "
       "checks, and a starting point for \\fB\\-\\-data\\fR.\n";
  s += ".SH SEE ALSO\n\\fBqsel explain rule\\-1\\fR \\&... \\fBrule\\-7\\fR for the selection rules; "
       "\\fBqsel explain QS001\\fR for a lint code; /usr/share/doc/qsel/ for the command pages.\n";
  return s;
}

}  // namespace qsel
