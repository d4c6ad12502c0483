// Package gridrun finds the moves that play a maze on any grid from its
// start to its goal, as a member would press them: tests of the rooms
// and of the Arena's end-to-end races share it. It is apart from testkit
// because play's own tests import testkit.
package gridrun
