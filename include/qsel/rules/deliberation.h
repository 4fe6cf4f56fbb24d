// What the rule engine works on: candidates (format x engine on one target),
// exclusions, unknowns and the checks to run after deploying. Each rule is a
// small function that reads records and adds to it; renderers only print it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"
#include "qsel/rules/quality.h"
#include "qsel/rules/quality_model.h"
#include "qsel/sizing/memory.h"
#include "qsel/rules/query.h"

namespace qsel {

struct Warning {
  std::string id;        // gotcha id (or a rule id for rule-made warnings)
  std::string severity;  // blocker | major | minor
  std::string message;
  bool silent = false;
  std::string condition;  // non-empty: applies only if this flag holds ("moe-backend=flashinfer_b12x")
  std::string effect;     // the gotcha's effect: wrong-output, load-failure, slow, memory, other; "" when unstated
};

struct MatrixCell {
  std::string matrix, engine, row, column, cell, note;
  std::vector<std::string> kernels;  // the kernels the column is about (matrix column `kernel`/`kernels`); empty: the format as a whole
};

// How to build the backend a candidate runs through (backend_build.cc), for an engine
// compiled per backend (engine `backends`); empty for any other engine.
struct BackendBuild {
  std::string name;    // "Vulkan", "HIP (ROCm)" …
  std::string build;   // the backend's configure and build command
  std::string device;  // the device name a build with several backends selects it by (Vulkan0)
  std::string note;    // the backend record's note
  bool off_platform = false;  // a backend other than the part's own platform (Vulkan on an AMD GPU): shown beside the engine
};

struct Candidate {
  const Record* format = nullptr;
  const Record* engine = nullptr;   // null for the unquantized baseline
  const Record* kernel = nullptr;   // null when no record names the kernel
  std::string backend;              // the backend it runs through (kernel `backends`, else the target's platform); keys calibration
  BackendBuild backend_build;
  std::string path;                 // native | dequant | emulated
  std::vector<MatrixCell> cells;
  std::vector<std::string> rules;   // "rule-1", …
  std::vector<std::string> why;     // one line per rule that shaped this candidate
  std::vector<Warning> warnings;
  std::vector<std::string> evidence;  // record ids cited
  std::string evidence_grade;         // best grade of the format's quality evidence, or "none recorded"
  QualityCost quality;                // estimated cost against the unquantized model (ranking reads it)
  double priced_cost = 0;             // that cost with the price of how it fits (tight, partly in RAM): what ranking compared
  std::vector<std::string> conflicts; // records that disagree about this format on this target
  std::vector<std::string> checks;    // post-deploy checks (Rule 2)
  std::optional<Memory> memory;
  std::string maturity = "mainline";  // mainline | experimental | plugin | deprecated (engine `maturity`)
  std::string maturity_reason;
  bool fallback_kernel = false;       // the engine reaches this kernel only after its specialised ones (kernel_selection `fallback`)
  std::string kernel_launch_flags;    // words the engine's command needs to take this kernel (kernel_selection `launch_flags`)
  bool shipped = false;               // the format the model ships in (its primary release)
  std::string release;                // a published checkpoint in this format, when one is recorded
  std::string hub_release;            // when `release` is the engine's own library tag: the Hub repo of the type it also loads
  std::string online_flags;           // the engine quantizes the 16-bit checkpoint to this format at load (engine online_quantization)
  bool release_official = false;      // published by the model's own publisher
  bool needless_upcast = false;       // 16 bits of a quantized release that itself runs here: gains nothing (releases.cc)
  int rank_tier = 0;                  // lower ranks first; set by the ranking rules
  int row = 0;                        // the table row it shares with its alike neighbours (assign_rows, rows.cc)
  std::size_t outranked = 0;          // of the conflicts, those where the engine's code at a commit outranks the docs that disagree
  bool contested() const { return !conflicts.empty(); }
  // Every conflict is a lower source the engine's own code outranks: the claim is kept and shown, the verdict is the code's.
  bool outranked_only() const { return !conflicts.empty() && outranked >= conflicts.size(); }
  // A conflict the engine's code does not settle: the candidate waits behind uncontested ones (docs/ranking.md).
  bool disputed() const { return contested() && !outranked_only(); }
};

struct Exclusion {
  std::string format, engine, rule, reason;
  std::vector<std::string> evidence;
  std::vector<std::string> conflicts;  // lower sources that say it does run (kept open, shown beside the exclusion)
};

struct Deliberation {
  const Graph& graph;
  const Query& query;
  std::vector<Candidate> candidates;
  std::vector<Exclusion> excluded;
  std::vector<std::string> unknowns;
  std::vector<std::string> notes;  // defaults and assumptions, stated
  std::vector<std::string> changes;  // what would change #1 when it is poor (more GPUs, a shorter context, offload)
  std::vector<std::string> tradeoffs;  // the best full-GPU answer beside the best one partly in system RAM
  mutable std::shared_ptr<const Calibration> calibration;  // fitted on first use (forecasts)
  mutable std::shared_ptr<const QualityModel> quality_model;  // fitted on first use (quality estimates)
  std::vector<std::string> lead;  // what the answer says first: nothing fits and what would (nothing_fits_lead), or why #1 is
                                  // no deployment and what runs well (restriction_lead)
  std::string lead_kind;          // "nothing-fits" | "no-deployment" | "deprecated-engine" | "release-elsewhere" | "" (no lead)
  bool deployable = true;         // false: #1 is an experimental path, a broken format or an up-cast (recommend exits 1)
};

// The forecast calibration on the deliberation's corpus, fitted once.
const Calibration& calibration_of(const Deliberation& d);
// The quality model on the deliberation's corpus, fitted once.
const QualityModel& quality_model_of(const Deliberation& d);

// What one deliberation can hand the next on the same corpus (sweeps, hints): the fits.
struct Fitted {
  std::shared_ptr<const Calibration> calibration;
  std::shared_ptr<const QualityModel> quality_model;
};

// Runs every rule in order and ranks the candidates; `fitted` saves refitting.
Deliberation deliberate(const Graph& g, const Query& q, const Fitted* fitted = nullptr);
// `q` asked again in full on `d`'s corpus with `d`'s fits (the leads' "with --count 4: …"): its #1
// when that fits and is a deployment, else nothing.
std::optional<Candidate> first_deployment(const Deliberation& d, const Query& q);

}  // namespace qsel
