// Record readers shared by the rule units and by explain, which reads records the way the rules do.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "qsel/graph/graph.h"
#include "qsel/graph/selector.h"
#include "qsel/rules/deliberation.h"
#include "qsel/rules/rules.h"

namespace qsel::rule_util {

bool contains(const std::vector<std::string>& v, const std::string& s);
void add_unique(std::vector<std::string>& v, const std::string& s);

// The target has every tensor-core precision the format needs natively.
bool target_has_precisions(const Record& target, const Record& format);
// The target computes `dtype` natively, in its matrix units or outside them.
bool target_has_dtype(const Record& target, const std::string& dtype);
// The precisions a format needs that the target's matrix units lack ("fp8").
std::vector<std::string> missing_precisions(const Record& target, const Record& format);

// The engine runs on this target at all (runs_on selector, platforms).
bool engine_runs_on(const Record& engine, const Record& target);
// The query asks for the engine: it is named, or none is and the engine answers unnamed
// (an engine marked only_when_named runs another's kernels: it answers when named or under every_engine).
bool engine_asked(const Query& q, const Record& engine);

// A kernel record's exclusions that name this format on this target, as reasons.
std::vector<std::string> kernel_exclusions(const Record& kernel, const std::string& format, const std::string& target);
// Every kernel record's general exclusion of this format on this target (a fact
// about every kernel built a certain way, such as sm100a binaries): "kernel-id: reason".
std::vector<std::pair<const Record*, std::string>> exclusions_anywhere(const Graph& g, const std::string& format,
                                                                      const std::string& target);

// How mature the engine's path for this format on this target is (engine `maturity`):
// the first entry that names the format (or every format) and matches the target.
struct Maturity {
  std::string level = "mainline";
  std::string reason;
};
// mainline 0, plugin 1, unlisted 2, experimental 3, deprecated 4 (unknown levels last).
int maturity_rank(const std::string& level);
bool deployable_maturity(const std::string& level);  // mainline, plugin or unlisted
// An evidence grade's place, best first: controlled 0, paper 1, vendor-claim 2,
// derived 3, anecdotal 4, unverified 5 (no source a reader can open holds it);
// anything else (ungraded) 6.
int grade_rank(const std::string& grade);
// `accelerator` (may be null) is matched against entries that name markets or a host
// (cpu_arch, os): an entry naming a host holds only on parts that record that host.
Maturity maturity_of(const Record& engine, const Record& format, const Record& target, const Record* accelerator);
// One maturity entry's target, market and host conditions hold for this part (formats aside).
bool maturity_entry_holds(const nlohmann::json& entry, const Record& target, const Record* accelerator);

// Whether the engine's own platform list (engine `supported_platforms`) names this part:
// its target, its market and, for parts that come with a host (SoCs, superchips), their
// CPU architecture and OS. An engine with no list names every part its runs_on allows.
// `source` is the title of the first entry's source (what an exclusion cites); `detail`
// says what the part is (target, host) and why no entry names it.
struct PlatformListing {
  bool listed = true;
  std::string source, detail;
};
PlatformListing platform_listing(const Record& engine, const Record& target, const Record* accelerator);

// The backend a candidate runs through: the picked kernel's backend (kernel `backends`,
// the first whose serves matches the target), else the target's platform (cuda, rocm, metal …).
std::string kernel_backend(const Record* kernel, const Record& target);

// The kernel an engine picks for a format on the query's target: the first
// kernel_selection entry whose format, target, flags and kernel all hold.
// Entries that need a flag the query cannot observe are passed over.
struct KernelPick {
  const Record* kernel = nullptr;
  const nlohmann::json* entry = nullptr;
  std::string backend;  // kernel_backend of the pick: "" when there is no kernel
  // When the engine selects a kernel that fails here (a kernel exclusion marked fails):
  // that exclusion (kernel, entry) and no kernel — the engine does not fall through.
  const Record* failing = nullptr;
  const nlohmann::json* failure = nullptr;
};
KernelPick pick_kernel(const Graph& g, const Record& engine, const Record& format, const Query& q);
// One pick per backend for an engine compiled per backend (its kernels name `backends`):
// within each backend the first entry that holds wins, in the order of kernel_selection.
// An engine without backends gives at most one pick (pick_kernel's), as does a format
// whose kernel fails here. The query's --backend is applied by the caller, which says why.
std::vector<KernelPick> pick_kernels(const Graph& g, const Record& engine, const Record& format, const Query& q);

// A matrix's say about one format on one target: the Y cells and the others
// (".", or a Y a footnote narrows), or why the matrix does not cover the target.
struct CellRead {
  std::vector<MatrixCell> yes, no;
  bool row_found = false, column_found = false;
  std::string uncovered_note;
};
const nlohmann::json* covering_row(const Record& matrix, const Record& target);
CellRead read_matrix_cells(const Record& matrix, const Record& format, const Record& target, const std::string& engine);
// A per-model table's rows that name the model (its family or its architecture), and their cells
// for the format: a Y in any of them is a Y.
std::vector<const nlohmann::json*> model_rows(const Record& matrix, const ModelSpec& model);
CellRead read_model_cells(const Record& matrix, const Record& format, const ModelSpec& model, const std::string& engine);
// The text of a footnote on `cell` that carries `contested_by` (a source that says the "." runs), or "".
std::string contesting_footnote(const Record& matrix, const std::string& cell);
// The source that footnote cites against the cell (its contested_by), or null.
const nlohmann::json* contesting_source(const Record& matrix, const std::string& cell);

// A candidate fits (comfortably, tight, or partly in system RAM); one with no memory figures counts as fitting.
bool fits(const Candidate& c);
// Bits of its format: the weight bits, or its sized bpw when the format states none (mixtures, EXL2).
double format_bits(const Candidate& c);
// Its estimated quality cost is in the broken range (quality.h).
bool broken(const Candidate& c);
// It carries a blocker that no flag condition narrows.
bool has_blocker(const Candidate& c);

// Parts a user adds more of (market consumer, workstation, datacenter, cloud): not laptops,
// SoCs, unified-memory machines or edge modules, for which "--count N" is no advice.
bool takes_more_parts(const Record* accelerator);

// A candidate worth offering as an answer: a deployable path (deployable_maturity), not in the broken range, sized, and
// not a 16-bit up-cast of a release that runs here.
bool offerable(const Candidate& c);
// One line for a candidate an answer's lead names: format on engine, where it sits, speed, cost.
std::string describe_candidate(const Candidate& c);
// A context length as --context takes it back: "8k" for a multiple of 1024, else the number.
std::string context_tokens(long tokens);

// Does a flag list hold for the query? Unknown flags make it conditional: `condition` names them.
bool flags_hold(const nlohmann::json& flags, const Query& q, std::string* condition);


}  // namespace qsel::rule_util
