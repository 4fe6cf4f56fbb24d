#include "qsel/core/least_squares.h"

#include <algorithm>
#include <cmath>

namespace qsel {
namespace {

// In place: A = L L^T, L in the lower triangle. False when A is not positive definite.
bool cholesky(std::vector<double>& a, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0) || !std::isfinite(d)) return false;
    d = std::sqrt(d);
    a[j * n + j] = d;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return true;
}

void substitute(const std::vector<double>& l, std::size_t n, std::vector<double>& b) {
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    double s = b[i];
    for (std::size_t k = 0; k < i; ++k) s -= l[i * n + k] * b[k];
    b[i] = s / l[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= l[k * n + i] * b[k];
    b[i] = s / l[i * n + i];
  }
}

struct Normal {
  std::vector<double> jtj, jtr;
  double cost = 0;
};

Normal normal_equations(const std::vector<Residual>& rs, std::size_t n) {
  Normal out{std::vector<double>(n * n, 0.0), std::vector<double>(n, 0.0), 0};
  for (const Residual& r : rs) {
    out.cost += 0.5 * r.value * r.value;
    for (const auto& [i, gi] : r.grad) {
      out.jtr[i] += gi * r.value;
      for (const auto& [j, gj] : r.grad) out.jtj[i * n + j] += gi * gj;
    }
  }
  return out;
}

}  // namespace

bool cholesky_solve(std::vector<double> a, std::size_t n, std::vector<double>& b) {
  if (!cholesky(a, n)) return false;
  substitute(a, n, b);
  return true;
}

double LeastSquaresFit::variance(const std::vector<std::pair<std::size_t, double>>& g) const {
  double v = 0;
  for (const auto& [i, gi] : g)
    for (const auto& [j, gj] : g) v += gi * gj * cov(i, j);
  return std::max(0.0, v);
}

LeastSquaresFit least_squares(const ResidualFn& residuals, std::vector<double> theta, int max_iterations) {
  const std::size_t n = theta.size();
  LeastSquaresFit fit;
  std::vector<Residual> rs;
  residuals(theta, rs);
  Normal ne = normal_equations(rs, n);
  double lambda = 1e-3;
  for (fit.iterations = 0; fit.iterations < max_iterations; ++fit.iterations) {
    bool stepped = false;
    for (int tries = 0; tries < 30 && !stepped; ++tries) {
      std::vector<double> a = ne.jtj;
      for (std::size_t i = 0; i < n; ++i) a[i * n + i] += lambda * std::max(ne.jtj[i * n + i], 1e-9);
      std::vector<double> step(n);
      for (std::size_t i = 0; i < n; ++i) step[i] = -ne.jtr[i];
      if (!cholesky_solve(std::move(a), n, step)) {
        lambda *= 10;
        continue;
      }
      std::vector<double> next = theta;
      for (std::size_t i = 0; i < n; ++i) next[i] += step[i];
      std::vector<Residual> next_rs;
      residuals(next, next_rs);
      Normal next_ne = normal_equations(next_rs, n);
      if (std::isfinite(next_ne.cost) && next_ne.cost <= ne.cost) {
        double gain = ne.cost - next_ne.cost;
        theta = std::move(next);
        ne = std::move(next_ne);
        lambda = std::max(lambda / 10, 1e-12);
        stepped = true;
        if (gain <= 1e-12 * std::max(1.0, ne.cost)) fit.converged = true;
      } else {
        lambda *= 10;
      }
    }
    if (!stepped || fit.converged) {
      fit.converged = true;
      break;
    }
  }
  fit.theta = theta;
  fit.cost = ne.cost;
  std::vector<double> l = ne.jtj;
  if (cholesky(l, n)) {
    fit.covariance.assign(n * n, 0.0);
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<double> e(n, 0.0);
      e[c] = 1;
      substitute(l, n, e);
      for (std::size_t r = 0; r < n; ++r) fit.covariance[r * n + c] = e[r];
    }
  }
  return fit;
}

}  // namespace qsel
