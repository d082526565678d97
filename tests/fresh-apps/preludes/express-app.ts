// Runtime prelude "express-app": what the Express README's quick start defined (express, its app and
// payment router), from the app's own module.
import express from 'express';
import { app, payments } from './express-app.js';
