// Everything a tree needs to read while it grows: the raw predictors (for
// splits), integer class labels, and the scaled rows (for SVM leaves).
#ifndef SVFOREST_TRAININGDATA_H
#define SVFOREST_TRAININGDATA_H

#include "DataView.h"
#include "Scaling.h"
#include "ScaledRows.h"

namespace svf {

struct TrainingData {
  const DataView* x = nullptr;
  const int* y = nullptr;  // class of each row, 0 .. num_classes - 1
  int num_classes = 0;
  Scaling scaling;
  ScaledRows scaled;  // filled only when a component asks for it
};

}  // namespace svf
#endif
