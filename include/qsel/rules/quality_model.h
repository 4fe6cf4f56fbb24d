// The quality model (docs/quality.md): every quality row of the corpus, on every
// model, in every metric, fitted into one estimate of what a format costs on the
// model asked about, with a band.
//
//   ln cost = a[family] - s * (bits - 4.5) - k * ln(params / 8B) + i * [no imatrix]
//             + f[format] + u[lineage] + v[model] + w[model, format]
//
// A family is a quality-family technique record (a method: K-quants, calibrated
// INT4, W8A8, NVFP4, MLX affine, ...); every format in it shares the slope, so the
// estimate falls as bits rise within a family, by construction. KLD and ln PPL-ratio
// rows are read in ln units; an accuracy-recovery row's points lost are kappa[suite]
// times the cost, with noise that falls with the number of tasks averaged. Priors
// (the families' techniques, and the constants in quality_model.cc) keep the fit
// defined where rows are few; the parameters' covariance gives each estimate its
// band, and the difference of two estimates on one model its own, narrower band.
#pragma once
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "qsel/core/least_squares.h"
#include "qsel/graph/graph.h"
#include "qsel/model/model_spec.h"

namespace qsel {

// One quality row as the model reads it.
struct QualityRow {
  const Record* record = nullptr;
  const Record* family = nullptr;  // the quality-family technique
  std::string format, metric, suite, lineage, model;  // model: the key rows of one model share
  double value = 0, bits = 0, params_b = 0;
  bool imatrix = true;   // GGUF rows: made with an importance matrix (rows that do not say: no)
  int tasks = 1;
  double noise = 1;      // the grade's factor on the row's noise (anecdotal rows count less)
};

struct QualityEstimate {
  bool known = false;          // false: no family, or no bits per weight
  double ln_cost = 0;          // the central estimate, ln of KLD-equivalent nats
  double sd = 0;               // its standard deviation (ln units)
  double own_var = 0;          // the part no other candidate on this model shares
  std::vector<std::pair<std::size_t, double>> gradient;  // d ln_cost / d theta
  const Record* family = nullptr;
  int family_rows = 0;         // rows of the family
  int rows = 0;                // every row the fit read
  std::vector<const Record*> here;  // rows of this format on this model
  double cost() const;         // exp(ln_cost)
  double low() const;          // the 80% band
  double high() const;
};

class QualityModel {
 public:
  // Fits on every row of `g`; rows on the models in `leave_out` are held out. The model
  // keeps record addresses, never the graph's: estimate() takes the graph again.
  explicit QualityModel(const Graph& g, const std::set<std::string>& leave_out = {});

  // What `format` costs on `model` at `bits` bits per weight, made the way `engine`
  // makes it (null: any engine), as the publisher's QAT release when `qat`.
  QualityEstimate estimate(const Graph& g, const Record& format, const Record* engine, const ModelSpec* model, double bits, bool qat) const;
  // The standard deviation of ln(a) - ln(b) for two estimates on one model.
  double difference_sd(const QualityEstimate& a, const QualityEstimate& b) const;
  // The same for ln(cost + price), a fit's price added to each (fit_price.h).
  double priced_difference_sd(const QualityEstimate& a, double price_a, const QualityEstimate& b, double price_b) const;

  // An accuracy-recovery row's predicted points lost, and the sd of that prediction.
  std::pair<double, double> predicted_points(const QualityRow& row) const;
  // A row's predicted ln cost (the row's own bits, model and imatrix), and its sd.
  std::pair<double, double> predicted_ln(const QualityRow& row) const;

  // A row's measurement noise in ln units (KLD and PPL rows): the table's own, times its grade's factor.
  double logit_noise(const QualityRow& row) const;
  // A family's fitted intercept against the reference family's (ln units) and its sd; {0, 0} for the reference.
  std::pair<double, double> family_offset(const std::string& family) const;

  const std::vector<QualityRow>& rows() const { return rows_; }
  const std::vector<std::string>& skipped() const { return skipped_; }  // "id: why"
  double slope() const;         // ln units per bit
  double size_effect() const;   // ln units per e-fold of parameters
  double kappa(const std::string& suite) const;  // points lost per nat (the prior's where the suite is unknown)
  double no_imatrix_effect() const;               // ln units a GGUF made without an importance matrix loses more
  const LeastSquaresFit& fit() const { return fit_; }

  static std::string model_key(const Graph& g, const Record& row);

 struct Index;  // the parameters' places (quality_model.cc)

 private:
  std::shared_ptr<const Index> index_;
  std::vector<QualityRow> rows_;
  std::vector<std::string> skipped_;
  LeastSquaresFit fit_;
  std::vector<std::pair<std::size_t, double>> row_gradient(const QualityRow& row, double* ln) const;
};

// Every model's rows predicted by a fit without them (docs/quality.md, "Held-out error").
struct HeldOutError {
  std::vector<double> logit;    // |error| of KLD and PPL rows, ln units
  std::vector<double> centred;  // the same less the held-out model's mean error: between formats of one model
  std::vector<double> points;   // |error| of accuracy-recovery rows, points
  int logit_in_band = 0, points_in_band = 0;  // inside the 80% band (with the row's own noise)
  int models = 0;
};
HeldOutError held_out_error(const Graph& g);
double quantile(std::vector<double> v, double p);

// The quality-family technique for a format made by an engine (the most specific:
// one naming the engine before one naming none), the QAT family for a QAT release;
// null when no technique covers the format.
const Record* quality_family_of(const Graph& g, const Record& format, const Record* engine, bool qat);

// The lineage rows share a model effect through: "llama-3.1" -> "llama-3", "qwen3.5-moe" -> "qwen3".
std::string quality_lineage(const std::string& family);

}  // namespace qsel
