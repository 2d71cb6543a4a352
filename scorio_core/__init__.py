"""scorio_core: Bayes@N evaluation, CI-aware ranking and analyses for LLM outcome tensors.

The core never imports Streamlit; every number the app shows comes from a
function here, so a notebook can reproduce it with the same call.
"""

from ._validation import ValidationError
from .outcomes import COMBINED, Outcomes

__all__ = ["COMBINED", "Outcomes", "ValidationError"]
__version__ = "0.1.0"
