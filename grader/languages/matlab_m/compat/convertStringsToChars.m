function varargout = convertStringsToChars(varargin)
% MATLAB's convertStringsToChars (R2017b): Octave has no strings, so every input is already char.
  varargout = varargin;
end
