"""The analysts' workbench's own models, split by concern; import them from here.

Nothing here is part of the contract: channels and insured people never see a team, an
owner, a to-do, a note or a proposal.
"""

from workbench.models.proposals import Proposal
from workbench.models.teams import AssignmentRule, Team, TeamMember
from workbench.models.todos import ToDo

__all__ = ["AssignmentRule", "Proposal", "Team", "TeamMember", "ToDo"]
