// Engine parts built from the checked R parameter list, shared by the
// training entry points (fit.cpp, tdsvm.cpp).
#ifndef SVFOREST_FIT_PARTS_H
#define SVFOREST_FIT_PARTS_H

#include <Rcpp.h>
#include <memory>
#include <string>

#include "core/Forest.h"
#include "core/KernelSvmLeaf.h"
#include "core/LeafModel.h"
#include "core/Splitter.h"

template <typename T>
T param(const Rcpp::List& params, const char* name) {
  if (!params.containsElementNamed(name)) Rcpp::stop("internal: parameter '%s' missing", name);
  return Rcpp::as<T>(params[name]);
}

std::unique_ptr<svf::Splitter> make_splitter(const Rcpp::List& params);
// Kernel leaves use the first `cost` and `gamma`.
std::unique_ptr<svf::LeafModel> make_leaf_model(const Rcpp::List& params);
svf::KernelSvmOptions kernel_options(const Rcpp::List& params);
svf::SamplerType sampler_type(const std::string& s);
// The forest list stored in a model.
Rcpp::List forest_to_r(const svf::TrainingData& td, const svf::FittedForest& forest, int svm_min_rows);

#endif
