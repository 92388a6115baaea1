"""The dealer rotation: the floor's list of dealers on shift, the schedule of downs and breaks
(`tournaments.rotation`, pure), the push signed in on the tablet, and the desk's board."""
