// Uses the launcher blk_add_module(… EMBED) generated: the fatbin's bytes
// are in the program (double_blk::kFatbinImage, loaded with ctx.loadImage).
// Checks, also without a GPU, that they are the double_grid artifact; runs
// it where there is a GPU. Prints "package ok (embedded)".
#include "double.hpp"
#include "run_double.hpp"

#include <cstdio>
#include <optional>

int main() {
  blk::FatbinReader reader(double_blk::kFatbinImage, sizeof double_blk::kFatbinImage,
                           "embedded");
  blk::Manifest manifest = blk::parseManifest(reader.manifestJson(), "embedded");
  if (manifest.kernels.size() != 1 || manifest.kernels[0].name != "double_grid") {
    std::printf("the embedded bytes are not the double_grid artifact\n");
    return 1;
  }
  std::optional<blk::Context> ctx;
  try {
    ctx.emplace();
  } catch (const blk::Error &e) {
    std::printf("no GPU run: %s\n", e.what());
  }
  // With a GPU, loading the embedded image must work: no catch here.
  if (ctx)
    if (int status = runDouble(*ctx, double_blk::module(*ctx)))
      return status;
  std::printf("package ok (embedded)\n");
  return 0;
}
