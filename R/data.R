#' Image segmentation data (UCI Statlog)
#'
#' 2,310 3x3-pixel regions drawn from seven outdoor images, each described by
#' 19 numeric features, 330 regions per class. One of the benchmark datasets
#' of the random support vector trees thesis.
#'
#' @format A data frame with 2310 rows and 20 columns: 19 numeric features
#'   (`region_centroid_col`, `region_centroid_row`, `region_pixel_count`,
#'   `short_line_density_5`, `short_line_density_2`, `vedge_mean`, `vedge_sd`,
#'   `hedge_mean`, `hedge_sd`, `intensity_mean`, `rawred_mean`,
#'   `rawblue_mean`, `rawgreen_mean`, `exred_mean`, `exblue_mean`,
#'   `exgreen_mean`, `value_mean`, `saturation_mean`, `hue_mean`) and `class`,
#'   a factor with levels brickface, sky, foliage, cement, window, path, grass.
#' @source UCI Machine Learning Repository, Statlog (Image Segmentation),
#'   donated by the Vision Group, University of Massachusetts (CC BY 4.0).
#' @examples
#' table(segment$class)
"segment"
