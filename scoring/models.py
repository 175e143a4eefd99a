# Standings and rating models arrive with the scoring issue.
