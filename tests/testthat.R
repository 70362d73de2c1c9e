library(testthat)
library(svforest)

test_check("svforest")
