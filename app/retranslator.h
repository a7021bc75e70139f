#pragma once

#include <functional>
#include <vector>

// The texts of a widget tree, kept as the code that sets them: applied once when added and
// again on every language change, so a window switches language without being rebuilt.
class Retranslator
{
public:
    template<typename Apply>
    void add(Apply apply)
    {
        apply();
        m_apply.emplace_back(std::move(apply));
    }
    void retranslate() const
    {
        for (const auto& apply : m_apply)
            apply();
    }

private:
    std::vector<std::function<void()>> m_apply;
};
