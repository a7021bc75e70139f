#pragma once

#include <QFormLayout>
#include <QLabel>

#include <functional>
#include <map>
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
        for (const auto& [target, apply] : m_live)
            apply();
    }

    // A text that changes as things happen, such as a status line: the code that sets it now,
    // kept for `target` in place of the one before, applied at once and on every language change.
    void setLive(const QObject* target, std::function<void()> apply)
    {
        apply();
        m_live[target] = std::move(apply);
    }

    // A form row whose label (with its &-mnemonic for `buddy`) follows the language.
    template<typename Field>
    void addRow(QFormLayout* form, Field* field, QWidget* buddy, QString (*text)())
    {
        auto* label = new QLabel(buddy->parentWidget());
        label->setBuddy(buddy);
        form->addRow(label, field);
        add([label, text] { label->setText(text()); });
    }

private:
    std::vector<std::function<void()>> m_apply;
    std::map<const QObject*, std::function<void()>> m_live;
};
