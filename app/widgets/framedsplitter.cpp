#include "framedsplitter.h"

QSize FramedSplitter::minimumSizeHint() const
{
    return QSplitter::minimumSizeHint().grownBy(contentsMargins());
}

QSize FramedSplitter::sizeHint() const
{
    return QSplitter::sizeHint().grownBy(contentsMargins());
}
