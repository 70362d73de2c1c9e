#include "Params.h"

#include <climits>
#include <cmath>

namespace svf {

int Params::integer(const std::string& name) const {
  const double v = number(name);
  return std::isnan(v) ? INT_MIN : static_cast<int>(v);
}

}  // namespace svf
