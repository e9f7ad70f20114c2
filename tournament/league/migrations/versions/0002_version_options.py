"""A version's bot options (bot.toml's options table), set before each of its games.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The versions submitted before options existed had none: an empty table.
    with op.batch_alter_table("versions") as batch:
        batch.add_column(sa.Column("options", sa.JSON(), nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("versions") as batch:
        batch.drop_column("options")
