#pragma once
// The capture advice's texts as docs/analysis.md (Capture advice) gives them, written once for the
// tests that check them: the rules that spell Nsight Systems options, with the parts that depend
// on the export's release.

#include <string>

namespace testutil::advice {

// missing_devices, before " and --cuda-trace-scope" (exports of 2025.6 and later) and the release note
inline const std::string kDevices =
    "Capture every GPU of the node: run nsys over the launcher of all ranks (nsys profile ... torchrun ...), or one nsys "
    "per rank with per-rank names (-o rank_%q{RANK}), and open every file together; check CUDA_VISIBLE_DEVICES";
// no_cpu_sampling: kSampling + the --sample spelling + kSamplingRest + the release note
inline const std::string kSampling = "Record what the launching thread was doing: ";
inline const std::string kSamplingRest = " --cpuctxsw=process-tree, with --backtrace=dwarf for native call stacks";
// the two rules whose release could not be placed read the same for every export
inline const std::string kWaits =
    "Capture with --trace=cuda so that stream-wait records are kept, and export without a --tables filter; "
    "--cuda-event-trace=true, where nsys profile --help lists it, adds CUDA event completion (overhead; auto turns it "
    "off when CUDA_DEVICE_MAX_CONNECTIONS=1).";
inline const std::string kMetrics =
    "Sample GPU metrics on one rank per node: --gpu-metrics-devices=all (earlier releases spell it "
    "--gpu-metrics-device=all; nsys profile --help shows which yours takes), with --gpu-metrics-frequency for the rate.";
// when the release is unknown or the files differ: both spellings, with their releases
inline const std::string kTraceScopeBoth = " and --cuda-trace-scope (Nsight Systems 2025.6 and later).";
inline const std::string kSampleBoth = "--sample=process-tree (Nsight Systems 2022.1 and later; --sample=cpu in 2021.4 and earlier)";

// the end of a rule whose options were picked for the export's release `version`
inline std::string spelledFor(const std::string& version) {
    return " (options spelled for Nsight Systems " + version + ", the export's version).";
}

}  // namespace testutil::advice
