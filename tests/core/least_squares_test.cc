#include <catch2/catch.hpp>

#include <cmath>

#include "qsel/core/least_squares.h"

using namespace qsel;

TEST_CASE("least squares: a straight line through noisy points, with the textbook covariance", "[core][least-squares]") {
  // y = 2 + 3x, sigma 1: the OLS estimates and (X^T X)^-1.
  std::vector<double> xs = {0, 1, 2, 3, 4}, ys = {2.1, 4.9, 8.2, 10.9, 14.1};
  auto fit = least_squares(
      [&](const std::vector<double>& t, std::vector<Residual>& out) {
        out.clear();
        for (std::size_t i = 0; i < xs.size(); ++i) out.push_back({ys[i] - t[0] - t[1] * xs[i], {{0, -1.0}, {1, -xs[i]}}});
      },
      {0, 0});
  REQUIRE(fit.converged);
  CHECK(fit.theta[0] == Approx(2.04).epsilon(1e-6));
  CHECK(fit.theta[1] == Approx(3.0).epsilon(1e-6));
  // (X^T X)^-1 for x = 0..4: [[0.6, -0.2], [-0.2, 0.1]]
  CHECK(fit.cov(0, 0) == Approx(0.6));
  CHECK(fit.cov(0, 1) == Approx(-0.2));
  CHECK(fit.cov(1, 1) == Approx(0.1));
  CHECK(fit.variance({{0, 1.0}, {1, 2.0}}) == Approx(0.6 - 0.8 + 0.4));  // var(a + 2b)
}

TEST_CASE("least squares: an exponential fitted in linear space converges from a poor start", "[core][least-squares]") {
  // y = 0.5 * exp(-1.2 x), exact data: the fit recovers both parameters.
  std::vector<double> xs = {0, 0.5, 1, 2, 3, 4};
  auto fit = least_squares(
      [&](const std::vector<double>& t, std::vector<Residual>& out) {
        out.clear();
        for (double x : xs) {
          double y = 0.5 * std::exp(-1.2 * x), p = std::exp(t[0] - t[1] * x);
          out.push_back({(y - p) * 100, {{0, -p * 100}, {1, p * x * 100}}});
        }
      },
      {0, 0});
  CHECK(std::exp(fit.theta[0]) == Approx(0.5).epsilon(1e-4));
  CHECK(fit.theta[1] == Approx(1.2).epsilon(1e-4));
}

TEST_CASE("least squares: an unidentified parameter leaves no covariance, and a prior residual identifies it", "[core][least-squares]") {
  auto data = [](const std::vector<double>& t, std::vector<Residual>& out, bool prior) {
    out.clear();
    out.push_back({1.0 - t[0] - t[1], {{0, -1.0}, {1, -1.0}}});  // only the sum is measured
    if (prior) out.push_back({(0.0 - t[1]) / 0.5, {{1, -2.0}}});
  };
  auto without = least_squares([&](const auto& t, auto& out) { data(t, out, false); }, {0, 0});
  CHECK(without.covariance.empty());
  auto with = least_squares([&](const auto& t, auto& out) { data(t, out, true); }, {0, 0});
  REQUIRE(!with.covariance.empty());
  CHECK(with.theta[0] + with.theta[1] == Approx(1.0));
  CHECK(with.theta[1] == Approx(0.0).margin(1e-9));
}

TEST_CASE("cholesky_solve: refuses a matrix that is not positive definite", "[core][least-squares]") {
  std::vector<double> b = {1, 1};
  CHECK(!cholesky_solve({1, 2, 2, 1}, 2, b));
  b = {1, 2};
  REQUIRE(cholesky_solve({4, 2, 2, 3}, 2, b));
  CHECK(4 * b[0] + 2 * b[1] == Approx(1));
  CHECK(2 * b[0] + 3 * b[1] == Approx(2));
}
