// Weighted non-linear least squares for the small models qsel fits from its
// measurements (the quality model: tens of parameters, hundreds of rows). Each
// residual is (observed - predicted) / sigma with its sparse gradient; priors are
// residuals too. Levenberg-Marquardt with a dense Cholesky solve, and the
// parameters' covariance (the inverse of J^T J) at the solution, which is what
// turns a fit into an estimate with a band.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace qsel {

struct Residual {
  double value = 0;                                  // (observed - predicted) / sigma
  std::vector<std::pair<std::size_t, double>> grad;  // d value / d theta[i]
};

using ResidualFn = std::function<void(const std::vector<double>& theta, std::vector<Residual>& out)>;

struct LeastSquaresFit {
  std::vector<double> theta;
  std::vector<double> covariance;  // n x n, row-major; empty when J^T J is singular at the solution
  double cost = 0;                 // half the sum of squared residuals
  int iterations = 0;
  bool converged = false;

  double cov(std::size_t i, std::size_t j) const { return covariance.empty() ? 0 : covariance[i * theta.size() + j]; }
  // g^T Cov g for a sparse gradient g.
  double variance(const std::vector<std::pair<std::size_t, double>>& g) const;
};

LeastSquaresFit least_squares(const ResidualFn& residuals, std::vector<double> theta, int max_iterations = 200);

// Solves A x = b for a symmetric positive definite A (n x n, row-major) by Cholesky;
// false when A is not positive definite. Exposed for tests.
bool cholesky_solve(std::vector<double> a, std::size_t n, std::vector<double>& b);

}  // namespace qsel
