#include "CompetingSteps.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "outcome/SurvivalTable.h"

namespace svf {

namespace {

double on_fine_grid(double v) { return std::ldexp(std::nearbyint(std::ldexp(v, 32)), -32); }

}  // namespace

void competing_steps(const CompetingRows& data, const int* rows, size_t n, std::vector<int>& ints,
                     std::vector<double>& reals) {
  const CompetingCurves curves = competing_curves(data, rows, n);
  ints.push_back(static_cast<int>(curves.n_at()));
  ints.insert(ints.end(), curves.at.begin(), curves.at.end());
  for (double v : curves.cif) reals.push_back(on_fine_grid(v));
  for (double v : curves.chf) reals.push_back(on_fine_grid(v));
}

double steps_time_lost(const int* ints, const double* reals, int K, int cause, const double* grid, int T) {
  const int m = ints[0];
  double lost = 0.0;
  for (int a = 0; a < m; ++a) {
    const double until = a + 1 < m ? grid[ints[a + 2]] : grid[T - 1];
    lost += reals[static_cast<size_t>(a) * K + cause - 1] * (until - grid[ints[a + 1]]);
  }
  return lost;
}

double wolbers_c(const double* time, const int* status, const int* rows, size_t m, const double* risk, int cause,
                 std::vector<double>* row_loss) {
  double beyond = 0.0;
  for (size_t k = 0; k < m; ++k) beyond = std::max(beyond, time[rows[k]]);
  beyond = 2.0 * beyond + 1.0;
  std::vector<double> t(m);
  std::vector<int> s(m), position(m);
  for (size_t k = 0; k < m; ++k) {
    const int c = status[rows[k]];
    t[k] = c > 0 && c != cause ? beyond : time[rows[k]];
    s[k] = c == cause ? 1 : 0;
  }
  std::iota(position.begin(), position.end(), 0);
  return harrell_c(t.data(), s.data(), position.data(), m, risk, row_loss);
}

}  // namespace svf
