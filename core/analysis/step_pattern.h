#pragma once
// The NVTX step pattern (docs/analysis.md, Steps), matched with RE2: linear time in the text and
// no recursion per character, so neither a 40,000-character NVTX text nor a pathological user
// pattern such as ((a*)*)*$ can overflow the stack or hang. Case-insensitive, whole-text match.
// RE2 syntax is Perl/ECMAScript-like without backreferences and lookaround.

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace skew {

const char* defaultStepRegex();

class StepPattern {
public:
    // Compiles `pattern` (empty: the default). Throws std::invalid_argument with RE2's reason.
    explicit StepPattern(const std::string& pattern = {});
    ~StepPattern();
    StepPattern(StepPattern&&) noexcept;
    StepPattern& operator=(StepPattern&&) noexcept;

    // One line saying why `pattern` does not compile, or empty when it does.
    static std::string check(const std::string& pattern);

    bool matches(std::string_view text) const;
    const std::string& source() const { return source_; }  // the pattern as given (empty: the default)

private:
    std::string source_;
    std::unique_ptr<re2::RE2> re_;
};

}  // namespace skew
