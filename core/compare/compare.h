#pragma once
// Comparing two captures (docs/analysis.md, `compare`): the same analysis of A (before a change) and
// B (after), groups paired across them, and per pair the differences B minus A of the numbers a
// performance engineer compares: skews, cost, big events, per-rank last counts and lateness, causes,
// step time; and, when both sides run the same op sequence per step, the positions of the step
// where big events were, followed from A to B.

#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/analysis.h"
#include "compare/whatif_check.h"
#include "model/profile.h"

namespace skew {

struct Side {
    const Profile* profile = nullptr;
    const Analysis* analysis = nullptr;
};

// One position of the step that held a big event on either side.
struct PositionChange {
    uint32_t position = 0;
    CollOp op = CollOp::Unknown;
    uint32_t bigStepsA = 0, stepsA = 0;  // steps where this position was big, of the steps seen
    uint32_t bigStepsB = 0, stepsB = 0;
    std::vector<uint32_t> collectivesA, collectivesB;  // the big ones: indices into each side's collectives
};

struct RankDelta {
    int rankA = -1, rankB = -1;  // rank ids on each side (paired by their place in the group)
    int64_t lastCount = 0, meanLatenessExclBigNs = 0;  // B - A
};

struct GroupDelta {
    int64_t collectives = 0, complete = 0;
    Percentiles startSkew, endSkew;  // B - A of each
    double costShare = 0;
    int64_t excessNs = 0;
    int64_t bigCount = 0, bigExcessNs = 0;
    std::vector<RankDelta> perRank;
    std::array<int64_t, kCauses> causes{};     // over complete collectives
    std::array<int64_t, kCauses> bigCauses{};  // over the big ones
    bool hasStepTime = false;                  // both sides have NVTX steps
    int64_t stepMedianNs = 0;
};

struct GroupPair {
    int a = -1, b = -1;  // group ids
    GroupDelta delta;
    // each side's own figures in the delta's shape (delta = valuesB - valuesA; per-rank entries
    // carry both rank ids), so a viewer shows A, B and B - A without computing them
    GroupDelta valuesA, valuesB;
    bool sameStepSequence = false;  // positions are comparable
    // why collectives pair by their index in the group, not by step and position (empty when they
    // pair by step and position): "neither capture has steps", ...
    std::string byIndexWhy;
    std::vector<PositionChange> positions;
    std::vector<std::string> notes;  // e.g. ranks paired by place although their labels differ
    // what makes the differences less telling: few collectives on a side (kFewCollectives), pairing
    // by index
    std::vector<std::string> cautions;
};

// Fewer complete collectives than this on a side: one collective moves the p90 and the max.
constexpr uint32_t kFewCollectives = 50;

struct Comparison {
    std::vector<GroupPair> pairs;
    std::vector<int> unpairedA, unpairedB;
    // one per unpaired group of either side, why it did not pair ("A group 1 (SendRecv 33, 2 ranks)
    // has no counterpart in B: ...", "... runs on 7 ranks ...: ranks differ ...")
    std::vector<std::string> messages;
    // what was compared, in a line ("No group of A (before) was compared with a group of B
    // (after)", "1 pair of groups compared; not compared: 1 group of A, 2 of B")
    std::string summary;
    // what to do about the groups not compared (empty when every group paired)
    std::string advice;
    // A's what-if (its ideal median step) beside B's measured median step: the model's report card
    // when B is the fixed run
    WhatIfCheck whatIf;
};

// Pairs groups by rank count and op mix (the share of each op; at least kOpMixAlike alike, as
// lane grouping asks of lanes' op counts: analysis/grouping.h) and computes the differences.
Comparison compareCaptures(const Side& a, const Side& b);

// The collective of the other side paired with `collective` (an index into the `fromA` side's
// collectives, a member of the pair's group there): by step and position in the step when both
// sides run the same op sequence per step and the collective lies in a step, else by its index in
// the group. `collective` is -1 when the other side has no such one (a step or an index it lacks).
struct PairedCollective {
    enum class By : uint8_t { StepPosition, Index };
    int collective = -1;
    By by = By::Index;
};
// CollectivePairing finds it for the collectives of one side (an events list, the viewer's
// selection, the worst paired one): the other side's group indexed once by (step, position).
// Points into both sides' analyses, which must outlive it.
class CollectivePairing {
public:
    CollectivePairing(const Side& a, const Side& b, const GroupPair& pair, bool fromA);
    PairedCollective of(uint32_t collective) const;
    // The collective of this side's group with the largest start skew among those that have a
    // paired collective on the other side (complete ones only); -1 when none has.
    int worst() const;

private:
    const Analysis* from_;
    const Group* fromGroup_;
    const Group* to_;
    bool byStep_;
    std::unordered_map<uint64_t, uint32_t> first_;  // (step << 32 | position) -> first such collective of the other side
};

// The op sequence of one step of group `g` (positions 1..P), from its first complete step; empty
// without steps.
std::vector<CollOp> stepSequence(const Analysis& a, const Group& g);

}  // namespace skew
