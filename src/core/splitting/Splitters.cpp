// The registry of splitters: one line per splitter, name as R gives it.
#include <stdexcept>

#include "CartSplitter.h"
#include "HybridSplitter.h"
#include "OobSvmSplitter.h"
#include "ProximalSvmSplitter.h"
#include "RandomAxisSplitter.h"
#include "Splitter.h"
#include "TransformSplitter.h"

namespace svf {

namespace {
struct SplitterEntry {
  const char* name;
  std::unique_ptr<Splitter> (*create)(const Params&);
};

const SplitterEntry kSplitters[] = {
    {"random_axis", &RandomAxisSplitter::create},
    {"psvm", &ProximalSvmSplitter::create},
    {"transform", &TransformSplitter::create},
    {"cart", &CartSplitter::create},
    {"oob_svm", &OobSvmSplitter::create},
    {"hybrid", &HybridSplitter::create},
};
}  // namespace

std::unique_ptr<Splitter> make_splitter(const std::string& name, const Params& params) {
  for (const SplitterEntry& e : kSplitters)
    if (name == e.name) return e.create(params);
  throw std::invalid_argument("unknown splitter '" + name + "'");
}

}  // namespace svf
