function s = join(parts, delimiter)
% MATLAB's join (R2016b) for a cell array of char rows (a space by default).
  if nargin < 2
    delimiter = ' ';
  end
  s = strjoin(parts(:)', delimiter);
end
