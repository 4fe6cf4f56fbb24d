// The rules whose findings come from the loader (src/loader/) or from lint itself
// (QS031 from --fix, QS046/QS047 from noqa comments): their docs only.
#include "checks.h"

namespace qsel::lint_checks {

const std::vector<RuleInfo>& loader_rules() {
  static const std::vector<RuleInfo> table = {
      {"QS001", "schema", Severity::Error, false,
       "A record violates its kind's JSON Schema.",
       {R"(A record that does not validate against `schemas/<kind>.schema.json`: a missing required field, an unknown field (with the nearest known name), a wrong type, a value outside its enum or range, an id that is not lower-case kebab. The message names the JSON path inside the record and what was expected.)",
        R"(The schemas are the single source of truth for structure: the advisor, the graph and every check read fields by these names and types. A record that fails them is not loaded at all, so everything it says is missing from every answer.)",
        R"(# formats/awq.yaml
id: awq
kind: format
regmie: w4a16)",
        R"(formats/awq.yaml:4:1: error: /regmie: unknown field "regmie"; did you mean "regime"? [QS001 schema])",
        R"(Correct the field the message names. `schemas/<kind>.schema.json` lists every field with its type and allowed values; editors with yaml-language-server can validate as you type. If the record needs a field the schema lacks, add it to the schema (draft-07, `additionalProperties: false` stays).)"}},
      {"QS002", "duplicate-id", Severity::Error, false,
       "Two records share an id.",
       {R"(A record whose `id` is already the id of another record anywhere in the corpus (ids are unique across kinds). The first file read keeps the id; each later one is reported and not loaded.)",
        R"(References are by id: with two records behind one id, every edge to it silently points at whichever was read first, and `qsel show ID` shows half the story.)",
        R"(# formats/awq-copy.yaml
id: awq
kind: format)",
        R"(formats/awq-copy.yaml:2:5: error: id "awq" is already used by data/formats/awq.yaml:1 [QS002 duplicate-id])",
        R"(Give one of the records a new id (and a file name to match), or merge them. If both describe the same thing under two names, keep one record and put the other name in its `aliases`.)"}},
      {"QS006", "invalid-yaml", Severity::Error, false,
       "A record file is not valid YAML, or uses YAML the strict reader rejects.",
       {R"(A file the strict YAML reader cannot read as one record: a syntax error (an unterminated quote, bad indentation), an empty file, an unsupported tag, a non-finite number, a non-scalar mapping key, nesting or size beyond the limits, or a scalar longer than the limit.)",
        R"(yaml-cpp is lenient and silently drops or reinterprets some invalid input; the strict reader refuses it so that what the record says is exactly what was written.)",
        R"(# formats/awq.yaml
id: awq
kind: [format)",
        R"(formats/awq.yaml:4:1: error: invalid YAML: end of sequence flow not found [QS006 invalid-yaml])",
        R"(Fix the syntax at the position given. Quote strings that contain `: ` or start with a special character; records need no tags, anchors or flow tricks.)"}},
      {"QS007", "multiple-documents", Severity::Error, false,
       "A record file holds more than one YAML document.",
       {R"(A file with a second YAML document (`---` followed by more content). Some syntax errors also surface this way, because yaml-cpp reads the rest of a broken file as a new document.)",
        R"(One file is one record: the file name is its id. A second document would be silently ignored by most readers.)",
        R"(# formats/awq.yaml
id: awq
---
id: gptq)",
        R"(formats/awq.yaml:3:1: error: more than one YAML document; a record file holds exactly one record [QS007 multiple-documents])",
        R"(Move the second record to its own file named after its id.)"}},
      {"QS008", "duplicate-key", Severity::Error, false,
       "A mapping in a record has the same key twice.",
       {R"(A key that appears twice in the same mapping. The message gives the line of the first occurrence.)",
        R"(YAML readers disagree on which value wins (yaml-cpp keeps the first, many others the last), so the record means different things to different tools — usually after a merge.)",
        R"(# formats/awq.yaml
id: awq
weight_group_size: 128
weight_group_size: 64)",
        R"(formats/awq.yaml:4:1: error: duplicate key "weight_group_size" (first defined at line 3) [QS008 duplicate-key])",
        R"(Delete the stale entry and keep the value you mean.)"}},
      {"QS009", "yaml-anchor", Severity::Error, false,
       "A record uses a YAML anchor (&name) or alias (*name).",
       {R"(Any anchor or alias in a record file.)",
        R"(Records have no use for them, aliases make a value's source location ambiguous for lint and `qsel show`, and nested aliases can expand exponentially ("billion laughs").)",
        R"(# formats/awq.yaml
native_support: &parts [h100-sxm]
emulated_support: *parts)",
        R"(formats/awq.yaml:2:17: error: anchors (&name) are not allowed in record files; write the value out [QS009 yaml-anchor])",
        R"(Write the value out in full at each place it is used.)"}},
      {"QS010", "file-too-large", Severity::Error, false,
       "A record file is larger than the size limit (1 MiB).",
       {R"(A record file over 1 MiB. Record files are a few KB.)",
        R"(A file that large is not a record (a pasted log, a generated dump); reading it costs seconds and hundreds of MB.)",
        R"(# formats/awq.yaml — 3 MB)",
        R"(formats/awq.yaml: error: file is 3145728 bytes; a record file may be at most 1048576 bytes [QS010 file-too-large])",
        R"(Keep records to their facts; put long material in a source and cite it.)"}},
      {"QS011", "invalid-encoding", Severity::Error, false,
       "A record file is not UTF-8 text (invalid bytes or a NUL).",
       {R"(A file with a byte sequence that is not valid UTF-8, or a NUL byte. The position is the first bad byte.)",
        R"(Records are read and printed as UTF-8 everywhere (JSON output, SARIF, terminals); a Latin-1 `µ` or a stray NUL breaks every consumer differently.)",
        R"(# formats/awq.yaml — saved as Latin-1
name: AWQ (µ-scaled))",
        R"(formats/awq.yaml:2:12: error: invalid UTF-8 (byte 0xB5); record files must be UTF-8 [QS011 invalid-encoding])",
        R"(Re-save the file as UTF-8 (`iconv -f latin1 -t utf-8`).)"}},
      {"QS013", "unknown-kind-folder", Severity::Error, false,
       "Record files sit in a folder that is not a record kind.",
       {R"(A folder of YAML files in the corpus whose name is not a kind's plural (`formats/`, `accelerators/`, `targets/`, `kernels/`, `engines/`, `matrices/`, `benchmarks/`, `gotchas/`, `models/`, `techniques/`, `facts/`, `questions/`), or a single file given outside one. Its files are not loaded.)",
        R"(The folder says what kind a record is; files in a misspelt folder vanish from the corpus without a trace.)",
        R"(# data/format/awq.yaml — "format", not "formats")",
        R"(data/format: error: folder "format" is not a record kind (did you mean "formats"?); its files were not loaded [QS013 unknown-kind-folder])",
        R"(Move the files into the kind folder they belong to.)"}},
      {"QS014", "unreadable-file", Severity::Error, false,
       "A record file cannot be read.",
       {R"(A file the linter found but could not open or read (permissions, a broken link, an I/O error).)",
        R"(An unreadable record is a missing record; the corpus would silently be smaller than it looks.)",
        R"(# formats/awq.yaml — mode 000)",
        R"(data/formats/awq.yaml: error: cannot read file [QS014 unreadable-file])",
        R"(Fix the file's permissions or replace the broken link.)"}},
      {"QS031", "fix-not-applied", Severity::Error, false,
       "`qsel lint --fix` left a file untouched.",
       {R"(A file `--fix` would have edited but did not write: it is a symlink, it changed on disk between linting and writing (another editor, a concurrent `git checkout`), or it could not be replaced (permissions, a read-only directory, a full disk).)",
        R"(`--fix` writes a temporary file beside the record, flushes it and renames it over the original, so a record is always either untouched or fully fixed, and never overwrites an edit it has not seen. A file it skipped still carries the findings the fix was for; this finding says so instead of failing silently.)",
        R"(# formats/awq.yaml edited in another window while qsel lint --fix ran)",
        R"(formats/awq.yaml: error: not fixed: the file changed since it was linted; run qsel lint --fix again [QS031 fix-not-applied])",
        R"(Run `qsel lint --fix` again once nothing else is writing the file; for a symlink, fix the file it points to; for permissions, make the file and its folder writable.)"}},
      {"QS046", "unused-noqa", Severity::Warning, true,
       "A `# qsel: noqa` comment suppresses nothing.",
       {R"(A suppression comment that no finding needs, as ruff's RUF100: a `# qsel: noqa: CODE, …` at the end of a line where a listed code has no finding on that line, a bare `# qsel: noqa` on a line with no finding, or a `# qsel: noqa-file` (bare or with codes) in a file where it suppresses nothing. A listed code whose rule this run does not enable (`--select`, `--ignore`, a config's ignores) is reported as "not enabled", as ruff does. The finding sits on the comment's `#`; a QS046 can itself be silenced by `# qsel: noqa-file: QS046` or `--ignore QS046`.)",
        R"(A stale suppression hides the next real finding on its line: once the value it excused is fixed, it silently excuses whatever mistake comes there next. Removing it keeps every remaining suppression a deliberate, current decision.)",
        R"(weight_group_size: 32  # qsel: noqa: QS004, QS005)",
        R"(formats/gguf-q4-k-m.yaml:7:24: warning: unused noqa directive (unused: QS004, QS005) [QS046 unused-noqa])",
        R"(`qsel lint --fix` removes exactly the unused part: the unused codes from the list (keeping the others and their separators), or the whole comment with the blanks before it, or the whole line when the comment stood alone. Every other byte stays.)"}},
      {"QS047", "invalid-noqa", Severity::Error, false,
       "A `# qsel:` comment that is malformed or names an unknown code.",
       {R"(A `# qsel:` comment that does not parse as a directive — an unknown directive (`# qsel: noqa-fle`), codes without the colon (`# qsel: noqa QS005`), a colon with no code after it — or a `noqa` list naming a code the registry does not have (`QS05`, `E501`). The rest of a list still applies; a malformed directive suppresses nothing.)",
        R"(A directive that does not parse suppresses nothing, so the finding it was written for still fails the run, or, worse, the comment looks like it excuses something it does not; an unknown code is usually a typo of the code that was meant.)",
        R"(weight_group_size: 256  # qsel: noqa: QS04)",
        R"(formats/gguf-q4-k-m.yaml:7:39: error: unknown code "QS04" in a noqa directive (did you mean QS004?) [QS047 invalid-noqa])",
        R"(Write the directive as `# qsel: noqa: QS004` (codes after a colon, comma-separated) or `# qsel: noqa-file: QS004` for the whole file; `qsel lint --list-rules` lists the codes.)"}},
  };
  return table;
}

}  // namespace qsel::lint_checks
