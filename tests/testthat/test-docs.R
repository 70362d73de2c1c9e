# The help pages: markdown rendered (no raw backticks), every % escaped (an
# unescaped % starts an Rd comment and cuts the sentence), ?svforest short
# with its topics on pages of their own.

rd_text <- function(topic) {
  db <- tools::Rd_db("svforest")
  rd <- db[[paste0(topic, ".Rd")]]
  if (is.null(rd)) return(NULL)
  paste(utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE))), collapse = "\n")
}

test_that("?svforest is short and its topics have pages of their own", {
  db <- tools::Rd_db("svforest")
  skip_if(length(db) == 0, "the installed package has no help pages")
  txt <- rd_text("svforest")
  expect_lt(length(strsplit(txt, "\n")[[1]]), 150)
  for (topic in c("svforest_methods", "svforest_missing_values", "svforest_weights", "svforest_calibration",
                  "svforest_scaling", "svforest_parameters", "svforest_regression", "svforest_explainers",
                  "svforest_dials", "svforest_butcher")) {
    expect_false(is.null(rd_text(topic)), label = topic)
  }
  # each method's section is on the methods page
  methods_txt <- rd_text("svforest_methods")
  for (m in svforest_methods()$method) expect_match(methods_txt, sprintf("Method \"%s\"", m), fixed = TRUE)
})

test_that("no help page shows raw markdown or a sentence cut by %", {
  db <- tools::Rd_db("svforest")
  skip_if(length(db) == 0, "the installed package has no help pages")
  for (name in names(db)) {
    txt <- paste(utils::capture.output(tools::Rd2txt(db[[name]])), collapse = "\n")
    expect_false(grepl("`[a-z_]+\\(\\)`", txt), label = paste(name, "has raw backticks"))
    expect_false(grepl("\\]\\([a-z_]+\\(\\)\\)|\\[[a-z_.]+\\(\\)\\]", txt), label = paste(name, "has a raw link"))
  }
  # sentences with a percentage are whole (they were cut at the % before)
  flat <- gsub("\\s+", " ", rd_text("svforest_methods"))
  expect_match(flat, "cross-validated accuracy is 92.6% with", fixed = TRUE)
  expect_match(flat, "letter: 19% SVM leaves, accuracy 0.75", fixed = TRUE)
})
