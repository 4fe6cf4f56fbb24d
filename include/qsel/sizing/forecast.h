// Decode forecasts calibrated on measurements (docs/performance-model.md). The
// ceiling is bandwidth / bytes read per token; what engines reach of it is
// measured: every benchmark record with a `speed` block (decode, batch 1) gives
// one ratio measured / ceiling, and the median per engine and backend is the
// efficiency a forecast multiplies the ceiling by.
#pragma once
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "qsel/graph/graph.h"

namespace qsel {

// One decode measurement and the ceiling qsel computes for it.
struct SpeedRow {
  const Record* record = nullptr;
  std::string engine, backend;  // engine id; platform the run used (cuda, metal, vulkan …)
  std::string memory;           // the part's memory class (memory_class_of): hbm, non-hbm; "" unknown
  double measured_tok_s = 0;
  double ceiling_tok_s = 0;     // bandwidth / bytes read per token (split between GPU and RAM when offloaded)
  bool offload = false;         // part of the model ran from system RAM
  bool unverified = false;      // graded unverified: no attributable source; kept out of the calibration
  int layers = 0;               // transformer blocks (speed.layers, else the model record's); 0 unknown: no per-layer term
  bool moe = false;             // an MoE: fewer active parameters than total (its routing cost per layer: Calibration::moe_term)
  double bandwidth_gbs = 0;     // the part's memory bandwidth (the MoE term is read in bytes at it)
  // Where the run publishes no file size: the size qsel's own sizing gives its model and format (choose_bpw, weights_gb),
  // e.g. "estimated: measured on qwen3-14b"; "" when the run states weights_gb.
  std::string weights_basis;
  double ratio() const { return ceiling_tok_s > 0 ? measured_tok_s / ceiling_tok_s : 0; }
};

// Every decode row the corpus's speed records give a ceiling for (rows without an
// accelerator bandwidth or a model size are left out, and said so by the caller).
// Rows graded `unverified` — read from no source a reader can open — calibrate
// nothing until they are traced: they come back only when asked for.
std::vector<SpeedRow> speed_rows(const Graph& g, bool with_unverified = false);

struct Efficiency {
  double value = 0;   // median measured / ceiling (with the engine's per-layer step term taken out where it has one)
  int rows = 0;       // measurements it rests on
  std::string basis;  // "ENGINE on metal", "ENGINE (every backend)", "every engine"
  bool pooled = false;  // the every-engine fallback answered: the engine has no rows of its own
};

// The fixed part of a single-GPU (or offload, or layer-split) decode step: seconds each layer adds
// beyond reading its weights (kernel launches, norms, routing, sampling), so that
//     step = batch / (efficiency x ceiling) + layers x layer_s
// (docs/performance-model.md, "A floor per token"). `source` says what it was fitted on.
struct StepFloor {
  double layer_s = 0;
  int rows = 0;
  std::string source;  // "llama-cpp's single-GPU runs on cuda", "llama-cpp's single-GPU runs, every backend pooled", "serving engines' …"
  // The backend the term was fitted on ("" when it pools backends: the engine's figure over every backend,
  // the every-engine figure, the serving engines' figure). A backend gets its own term with kMinFloorRows
  // full-GPU runs that state a layer count.
  std::string backend;
  bool pooled = false;  // the term pools what it forecasts for: another backend's, the engine's or every engine's runs
  // For the pooled and serving terms: the every-engine efficiency with the pooled term taken out (full
  // GPU, offload), which replaces the plain every-engine figure for an engine with no rows of its own.
  // 0 for an engine's own term (its own groups already have the term taken out).
  double efficiency = 0, offload_efficiency = 0;
};

// Efficiencies fitted on `rows`: per engine and backend, per engine, and overall;
// a group needs at least three rows to stand on its own.
// A tensor-parallel decode measurement at batch 1: each layer waits on its all-reduces and the
// engine's per-step work, which bandwidth alone does not see (a 671B MoE on 8 GPUs reads about
// a millisecond of weights per GPU per token and runs at 60-110 tok/s, not 1,000).
struct TpRow {
  const Record* record = nullptr;
  std::string engine;
  std::string backend;       // the run's platform (speed.backend, else the part's target's)
  std::string link;          // what the GPUs exchange activations over: the run's `interconnect`, else the part's; "" unknown
  double measured_tok_s = 0;
  double ceiling_tok_s = 0;  // TP x bandwidth / bytes read per token
  int layers = 0, tp = 0;
  bool moe = false;          // the model routes each token to a few experts (active < total parameters)
  int experts = 0;           // routed experts a token reads in each MoE layer (the model's active_experts); 0 dense or unknown
  std::string configuration;  // engine, parts, layout, model and format: runs of one setup at several prompt lengths share it
};
std::vector<TpRow> tp_rows(const Graph& g);
// Single-GPU batch-1 decode runs of serving engines (engine role `serving`), with the ceiling from the
// format's bits as tp_rows computes it (these runs seldom publish a file size): what the serving
// engines' per-layer step term is fitted on.
std::vector<TpRow> serving_rows(const Graph& g);

// The interconnect class an accelerator record states (`interconnect.link`: nvlink, pcie, xgmi …), "" when none.
std::string interconnect_of(const Record& accelerator);

// Seconds each layer adds to a tensor-parallel decode step beyond reading its weights
// (docs/performance-model.md, "Several GPUs"): a per-layer figure fitted on dense runs (all-reduces and the
// engine's per-step work), and for an MoE a figure per routed expert a token reads in each layer (one
// expert kernel's launch and its slice on every GPU), each the median over the configurations of the first
// group with three (a configuration: one setup's runs at several prompt lengths, their median): the engine
// on this backend, the engine on any, every run.
struct TpTerm {
  double base_s = 0, expert_s = 0;
  int base_rows = 0, expert_rows = 0;
  std::string base_group, expert_group;  // "ENGINE|BACKEND", "ENGINE", or "" for every run
  double layer_s(int experts) const { return base_s + experts * expert_s; }
  // "15 multi-GPU runs of sglang on cuda", "… of sglang, every backend", "… every engine pooled": a group as the basis names it.
  static std::string describe(const std::string& group, int runs);
};

// One group of the tensor-parallel fit as docs/performance-model.md tables it: "" is every run.
struct TpGroup {
  std::string group;
  int dense_rows = 0, moe_rows = 0;
  int dense_configurations = 0, moe_configurations = 0;
  double base_s = 0, expert_s = 0;  // 0 where the group has fewer than three configurations of that kind
};

// Full-GPU runs with a layer count a backend needs for a per-layer term of its own: the term and the
// backend's efficiency are fitted together (two figures from one median error), and each run held out
// must leave seven, so that neither figure is pinned by two or three runs.
constexpr int kMinFloorRows = 8;

// How the per-layer step term is fitted: not at all (plain median efficiencies, the model before the
// term), one term per engine across its backends, or one per engine and backend where the backend has
// kMinFloorRows runs (else the engine's, pooled).
enum class FloorFit { none, per_engine, per_backend };

// One backend's own per-layer term: fitted where the backend has kMinFloorRows full-GPU runs with a
// layer count, and adopted only when, each of those runs held out in turn, the backend's term predicts
// them with a lower median error than the engine's term over every backend.
struct FloorBackend {
  std::string engine, backend;
  int rows = 0;
  double layer_s = 0;
  bool adopted = false;
  double held_out_own = 0, held_out_pooled = 0;  // median held-out error inside the fit, own term vs the engine's
};

class Calibration {
 public:
  // With a FloorFit other than none, an engine whose rows state their layer count gets a per-layer step
  // term fitted jointly with its efficiencies (StepFloor; the engine's adopted only when it lowers the
  // median error on its own rows), per backend where the backend has kMinFloorRows runs; with none,
  // every efficiency is the plain median measured / ceiling (the model before the term).
  // `adopt`, when given, names the "ENGINE|BACKEND" terms to adopt instead of deciding it here (each
  // backend's runs held out in turn): a held-out table over many rows fixes it once from every row.
  explicit Calibration(const std::vector<SpeedRow>& rows, FloorFit fit = FloorFit::per_backend, const std::set<std::string>* adopt = nullptr);
  // What an MoE's step adds per layer to the dense forecast on one GPU (routing, expert dispatch), as bytes
  // read at the part's bandwidth: llama.cpp's MoE runs cost 20-170 us per layer beyond a dense model's, and
  // the cost falls with the part's bandwidth (about 30-50 MB a layer at it, docs/performance-model.md).
  // Fitted on the engine's single-GPU MoE runs (three at least); for an engine with no runs of its own, the
  // term every engine's MoE runs give against the pooled forecast (pooled true), which also stands in for an
  // engine with fewer than three MoE runs; nullptr when the fit has no per-layer term. The efficiencies and per-layer terms
  // are fitted on dense runs, so that a routing cost is not read as a lower efficiency for every model.
  struct MoeTerm {
    double layer_gb = 0;  // per MoE layer, read at the part's bandwidth: seconds = layer_gb / bandwidth_gbs
    int rows = 0;
    std::string source;
    bool pooled = false;
    double layer_s(double bandwidth_gbs) const { return bandwidth_gbs > 0 ? layer_gb / bandwidth_gbs : 0; }
  };
  const MoeTerm* moe_term(const std::string& engine) const;

  // The single-GPU (offload, layer-split) decode step as qsel forecasts it, the held-out checks and recommend alike:
  //     step = batch / (efficiency x ceiling) + layers x (floor + MoE routing)
  // from `e`, for_engine's answer for the engine: the per-layer term step_floor gives (whose efficiency replaces
  // e's where the engine has no runs of its own), and for an MoE the routing term at the part's bandwidth.
  struct SingleGpuStep {
    double efficiency = 0;
    const StepFloor* floor = nullptr;  // the per-layer term applied; null when none applies
    bool floor_efficiency = false;     // the floor's efficiency replaced e's
    const MoeTerm* moe = nullptr;      // the MoE term applied; null for a dense model or none fitted
    double layer_s = 0;                // floor and MoE seconds per layer
    double rate(double ceiling, int batch, int layers) const {
      return efficiency > 0 && ceiling > 0 ? batch / (batch / (efficiency * ceiling) + layers * layer_s) : 0;
    }
  };
  SingleGpuStep single_gpu_step(const Efficiency& e, const std::string& engine, const std::string& backend, bool serving, bool offload,
                                bool moe, double bandwidth_gbs) const;
  // The "ENGINE|BACKEND" terms this fit adopted.
  std::set<std::string> adopted_floors() const;
  // `memory` is the part's memory class (memory_class_of): an engine's runs on parts of one class come
  // first where there are three, as an engine's kernels may reach less of HBM than of GDDR at batch 1.
  Efficiency for_engine(const std::string& engine, const std::string& backend, bool offload, const std::string& memory = "") const;
  // The per-layer step term a single-GPU forecast on `engine` and `backend` adds: the backend's own where
  // it has one, else the engine's over every backend (pooled), else, for a serving engine, the term
  // fitted on serving engines' single-GPU runs (fit_serving_floor), else the term fitted on every
  // engine's rows together (layer_s 0 if none). The last two carry the efficiency they go with, used
  // only when the engine has no rows of its own.
  const StepFloor& step_floor(const std::string& engine, const std::string& backend, bool serving) const;
  // Fits the serving engines' term on their single-GPU batch-1 runs (serving_rows), at the pooled
  // full-GPU efficiency, as fit_tensor_parallel does for tensor-parallel runs.
  void fit_serving_floor(const std::vector<TpRow>& rows);
  // Fits the tensor-parallel terms on `rows`, at the pooled full-GPU efficiency (TpTerm).
  void fit_tensor_parallel(const std::vector<TpRow>& rows);
  // The terms a tensor-parallel layout of `engine` on `backend` uses.
  TpTerm tensor_parallel(const std::string& engine, const std::string& backend) const;
  const std::vector<TpGroup>& tensor_parallel_groups() const { return tp_groups_; }
  const std::vector<FloorBackend>& floor_backends() const { return floor_backends_; }
  // The backend's own term as fitted (adopted or not); nullptr when it has fewer than kMinFloorRows runs.
  const FloorBackend* floor_backend(const std::string& engine, const std::string& backend) const;

 private:
  std::map<std::string, std::vector<double>> groups_;
  std::map<std::string, StepFloor> floors_;  // "ENGINE|BACKEND" (its own term), "ENGINE" (every backend pooled, adopted only)
  StepFloor pooled_floor_, serving_floor_;
  std::map<std::string, std::pair<double, int>> tp_base_, tp_expert_;  // group -> (median, runs), groups of three configurations or more
  std::vector<TpGroup> tp_groups_;
  std::vector<FloorBackend> floor_backends_;  // every backend with kMinFloorRows runs, adopted or not
  std::map<std::string, MoeTerm> moe_;        // per engine ("*": every engine's): MoE routing cost per layer
  void fit_moe(const std::vector<const SpeedRow*>& rows);
};

// What docs/performance-model.md reports (tests/sizing/forecast_test.cc checks it):
// per engine and backend, the full-GPU rows' median measured / ceiling and range, and
// the error on each row when every other row is fitted (leave one out).
struct GroupFit {
  std::string engine, backend;
  int rows = 0;
  double median = 0, low = 0, high = 0;
};
std::vector<GroupFit> calibration_groups(const std::vector<SpeedRow>& rows);

struct HeldOutGroup {
  std::string engine, backend;  // "" and "" for every row together
  int rows = 0;                // rows predicted
  double forecast_error = 0, forecast_p90 = 0;  // median (and 90th percentile) |forecast - measured| / measured
  double ceiling_error = 0;   // the median for the ceiling alone
  double no_floor_error = 0, no_floor_p90 = 0;  // the same for the forecast without the per-layer step term (plain efficiencies)
  double engine_floor_error = 0, engine_floor_p90 = 0;  // the same with one term per engine across its backends (FloorFit::per_engine)
};
// One row predicted from a fit on every other row (leave one out): the forecast as qsel makes it, with one
// per-layer term per engine, and with no term (plain median efficiencies). `row` points into the input.
struct HeldOutRow {
  const SpeedRow* row = nullptr;
  double forecast = 0, engine_floor = 0, no_floor = 0;  // tok/s
  double error(double predicted) const { return std::fabs(predicted - row->measured_tok_s) / row->measured_tok_s; }
};
std::vector<HeldOutRow> held_out_rows(const std::vector<SpeedRow>& rows, bool refit_adoption = true);
std::vector<HeldOutGroup> held_out_errors(const std::vector<SpeedRow>& rows, bool refit_adoption = true);  // per group, then "all" last

// The tensor-parallel runs predicted each from a fit on the others, per group (interconnect class
// "nvlink", engine "sglang"…; then "" for every run, last): held out one run at a time, and held out one
// configuration at a time (every run of its setup left out together, so no twin at another prompt length
// is in the fit). Each with the terms as fitted, with one pooled per-layer figure (what qsel used before
// the expert term), and with bandwidth x efficiency alone.
struct TpHeldOut {
  std::string group;
  int rows = 0;
  double pooled_median = 0, pooled_p90 = 0;
  double fitted_median = 0, fitted_p90 = 0;
  double configuration_median = 0, configuration_p90 = 0;  // the terms as fitted, each configuration held out whole
  double bandwidth_median = 0;  // efficiency x ceiling with no per-layer term
};
std::vector<TpHeldOut> tp_held_out_errors(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows);

// The decode rate qsel forecasts for a speed row from a calibration (efficiency and per-layer term as
// the recommendation applies them), for the held-out checks.
double forecast_of(const Calibration& c, const SpeedRow& r);

// The serving engines' single-GPU runs predicted each from a fit on all the others (leave one out),
// per engine and backend (then "" for every run, last): bandwidth x pooled efficiency alone, and with
// the per-layer term fitted on the other runs.
struct FloorHeldOut {
  std::string engine, backend;
  int rows = 0;
  double without_median = 0, with_median = 0;
};
std::vector<FloorHeldOut> serving_floor_held_out(const std::vector<SpeedRow>& speed, const std::vector<TpRow>& rows);

// The memory class of an accelerator, from its `memory_type`: "hbm" for stacked memory (HBM2, HBM2e, HBM3,
// HBM3e), "non-hbm" for any other recorded memory, "" when none is recorded. HBM has many channels and a long latency, so a batch-1 kernel needs more bytes in flight
// to reach its bandwidth: llama.cpp's runs on A100, H100, A30, V100, MI100, MI210 and Radeon Pro VII reach
// 0.30-0.55 of it, its runs on GDDR and LPDDR parts 0.6-0.9 (docs/performance-model.md). GDDR and LPDDR
// (unified) parts are not split: the runs do not separate them, and a split of 13 Vulkan runs three ways
// predicted them worse held out.
std::string memory_class_of(const Record& accelerator);

// The efficiency groups a forecast reads, most specific first, with the basis each names: the engine's
// offload runs (offload only), its runs on this backend and memory class, on this memory class over every
// backend (not where the backend has a per-layer term of its own: those groups are fitted at the engine's),
// on this backend, over every backend, and every engine's. Keys: "ENGINE|BACKEND#MEMORY" …
struct GroupKey {
  std::string key, basis;
};
// `describe` false leaves every basis empty (the fits read the keys alone).
std::vector<GroupKey> efficiency_order(const std::string& engine, const std::string& backend, const std::string& memory, bool offload,
                                       bool backend_term, bool describe = true);

// The platform a target's kernels run on in an engine (cuda, rocm, metal …), for the backend key.
std::string backend_of(const Record& target);

}  // namespace qsel
