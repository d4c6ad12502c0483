//go:build tools

package main

import (
	_ "github.com/bwmarrin/discordgo"
	_ "github.com/fogleman/gg"
	_ "github.com/gorilla/websocket"
	_ "github.com/joho/godotenv"
	_ "modernc.org/sqlite"
	_ "golang.org/x/image/font"
)
